// Benchmark: load a generated 5,000-table dump (~10 MB, mysqldump layout) with schemaFromDdl, the
// path `--schema` and the UI take. Target: <= 2 s. Prints the size, the median and max of 5 timed
// runs after one warm-up, tables/columns/indexes loaded, and the peak RSS.
//
//   npx tsx bench/schema/run.ts [--tables N] [--write FILE]
//
// The dump mixes what real ones hold: header SET lines, DROP TABLE IF EXISTS, charset juggling
// around each table, 8-40 columns of every common type, secondary and composite keys, FULLTEXT,
// foreign keys, generated columns, partitioned tables (in /*!50100 … */), COMMENTs with `;` and
// quotes, view stand-ins and views, and triggers in DELIMITER blocks.
import { writeFileSync } from 'node:fs';
import { schemaFromDdl } from '../../src/core/schema/ddl.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const TABLES = Number(option('--tables') ?? 5000);

const TYPES = [
  'int NOT NULL',
  'int unsigned DEFAULT NULL',
  'bigint NOT NULL',
  "varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL DEFAULT ''",
  'varchar(64) DEFAULT NULL',
  'char(2) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL',
  'decimal(12,2) NOT NULL DEFAULT 0.00',
  'datetime NOT NULL DEFAULT CURRENT_TIMESTAMP',
  'timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP',
  'text',
  'json DEFAULT NULL',
  "enum('new','paid','shipped') NOT NULL DEFAULT 'new'",
  'tinyint(1) NOT NULL DEFAULT 0',
  'date DEFAULT NULL',
  'double DEFAULT NULL',
];

function table(t: number): string {
  const columns = 8 + (t % 33);
  const lines = ['  `id` bigint unsigned NOT NULL AUTO_INCREMENT'];
  for (let c = 1; c < columns; c++)
    lines.push(`  \`c${c}_${t}\` ${TYPES[(t + c) % TYPES.length]} COMMENT 'column ${c}; of table ${t}'`);
  if (t % 10 === 0) lines.push(`  \`g_${t}\` bigint GENERATED ALWAYS AS ((\`id\` * 2)) VIRTUAL`);
  lines.push('  PRIMARY KEY (`id`' + (t % 25 === 0 ? ',`c2_' + t + '`' : '') + ')');
  // Keys the servers accept: a TEXT column needs a prefix, a JSON column cannot be a key part.
  const part = (c: number) => {
    const type = TYPES[(t + c) % TYPES.length]!;
    return type.startsWith('json') ? null : `\`c${c}_${t}\`${type === 'text' ? '(32)' : ''}`;
  };
  if (part(1)) lines.push(`  KEY \`idx_c1_${t}\` (${part(1)})`);
  if (columns > 4 && part(2) && part(3)) lines.push(`  KEY \`idx_c2_c3\` (${part(2)},${part(3)})`);
  // A foreign key needs a whole column (the key the server adds for it has no prefix).
  if (t % 7 === 0 && t % 25 !== 0 && part(1) && !part(1)!.includes('(')) {
    lines.push(`  KEY \`fk_${t}_parent\` (${part(1)})`);
    lines.push(
      `  CONSTRAINT \`fk_${t}_parent\` FOREIGN KEY (\`c1_${t}\`) REFERENCES \`t${t - 1}\` (\`id\`) ON DELETE CASCADE`,
    );
  }
  const partition =
    t % 25 === 0
      ? `\n/*!50100 PARTITION BY RANGE (\`c2_${t}\`)\n(PARTITION p0 VALUES LESS THAN (1000) ENGINE = InnoDB,\n PARTITION p1 VALUES LESS THAN MAXVALUE ENGINE = InnoDB) */`
      : '';
  return `--
-- Table structure for table \`t${t}\`
--

DROP TABLE IF EXISTS \`t${t}\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`t${t}\` (
${lines.join(',\n')}
) ENGINE=InnoDB AUTO_INCREMENT=${t * 13 + 1} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci COMMENT='table ${t}; it''s generated'${partition};
/*!40101 SET character_set_client = @saved_cs_client */;
`;
}

function dump(): string {
  const parts = [
    `-- MySQL dump 10.13  Distrib 8.0.33, for Linux (x86_64)
--
-- Host: 127.0.0.1    Database: bench
-- ------------------------------------------------------
-- Server version\t8.0.33

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET NAMES utf8mb4 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
`,
  ];
  for (let t = 0; t < TABLES; t++) {
    parts.push(table(t));
    if (t % 100 === 99) {
      parts.push(`DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=\`root\`@\`localhost\`*/ /*!50003 TRIGGER \`trg_${t}\` BEFORE INSERT ON \`t${t}\` FOR EACH ROW BEGIN
  IF NEW.\`c1_${t}\` < 0 THEN SET NEW.\`c1_${t}\` = 0; END IF;
END */;;
DELIMITER ;
`);
      parts.push(`/*!50001 DROP VIEW IF EXISTS \`v${t}\`*/;
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER */
/*!50001 VIEW \`v${t}\` AS select \`t\`.\`id\` AS \`id\`,\`t\`.\`c1_${t}\` AS \`c1\` from \`t${t}\` \`t\` where (\`t\`.\`id\` > 10) */;
`);
    }
  }
  return parts.join('\n');
}

const text = dump();
const file = option('--write');
if (file) writeFileSync(file, text);
const mb = (Buffer.byteLength(text) / 1024 / 1024).toFixed(1);

const time = () => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = schemaFromDdl(text, 'mysql');
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, result };
};
time(); // warm-up
const runs = Array.from({ length: 5 }, time);
const times = runs.map((run) => run.ms).sort((a, b) => a - b);
const cpuTimes = runs.map((run) => run.cpuMs).sort((a, b) => a - b);
const { summary, schema } = runs[0]!.result;
const columns = schema.tables.reduce((sum, table) => sum + table.columns.length, 0);
const indexes = schema.tables.reduce((sum, table) => sum + table.indexes.length, 0);
console.log(
  `${TABLES} tables, ${mb} MB: median ${times[2]!.toFixed(0)} ms, max ${times[4]!.toFixed(0)} ms (target <= 2000 ms), ` +
    `CPU time median ${cpuTimes[2]!.toFixed(0)} ms (GC threads included); ` +
    `loaded ${summary.tables} tables, ${summary.views} views, ${columns} columns, ${indexes} indexes; ` +
    `skipped ${summary.skipped.length}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
if (summary.tables !== TABLES || summary.skipped.length > 0) {
  console.error('FAILED: not every table loaded', summary.skipped.slice(0, 5));
  process.exit(1);
}
