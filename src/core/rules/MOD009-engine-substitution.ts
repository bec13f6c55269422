// MOD009: CREATE/ALTER TABLE … ENGINE=X with an engine the server does not have → ERROR 1286 with NO_ENGINE_SUBSTITUTION, silent InnoDB otherwise.

import { predictError, sqlModeSet } from '../sqlmode/modes.js';
import { spanFor, targetTableName } from '../sqlmode/statement.js';
import { isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';

/** Engines a default build provides (FEDERATED is compiled in but disabled by default on MySQL). */
const BUILT_IN: Record<'mysql' | 'mariadb', readonly string[]> = {
  mysql: [
    'INNODB',
    'MYISAM',
    'MEMORY',
    'HEAP',
    'CSV',
    'ARCHIVE',
    'BLACKHOLE',
    'MRG_MYISAM',
    'MERGE',
    'PERFORMANCE_SCHEMA',
    'NDB',
    'NDBCLUSTER',
  ],
  mariadb: [
    'INNODB',
    'MYISAM',
    'MEMORY',
    'HEAP',
    'CSV',
    'ARCHIVE',
    'BLACKHOLE',
    'MRG_MYISAM',
    'MERGE',
    'PERFORMANCE_SCHEMA',
    'ARIA',
    'SEQUENCE',
    'FEDERATED',
    'CONNECT',
    'ROCKSDB',
    'SPIDER',
    'S3',
    'COLUMNSTORE',
    'OQGRAPH',
    'MROONGA',
  ],
};

export const rule = defineRule({
  meta: {
    id: 'MOD009',
    name: 'sql-mode.engine-substitution',
    category: 'sql-mode',
    severity: 'error',
    title: 'Storage engine the server may not have',
    rationale:
      'With NO_ENGINE_SUBSTITUTION (default on MySQL 5.6+ and MariaDB 10.1.7+) an unavailable ENGINE fails with ERROR 1286; without it the table is silently created with the default engine (warning 1266) and loses what the engine promised.',
    appliesTo: ['create', 'alter'],
    messages: {
      error:
        'ENGINE={{engine}} is not a standard engine of {{flavor}}: ERROR 1286 under NO_ENGINE_SUBSTITUTION unless the plugin is installed.',
      substituted:
        'ENGINE={{engine}} is not a standard engine of {{flavor}}: the table is silently created with the default engine (warning 1266) because NO_ENGINE_SUBSTITUTION is off.',
    },
    docs: {
      antiPattern: 'CREATE TABLE t (id int PRIMARY KEY) ENGINE=TokuDB',
      bestPractice: 'CREATE TABLE t (id int PRIMARY KEY) ENGINE=InnoDB',
      notes: [
        'Offline, the installed plugins are unknown: engines outside the standard list are reported with that caveat.',
      ],
    },
  },
  detect(context) {
    const options = Array.isArray(context.ast.table_options) ? context.ast.table_options.filter(isNode) : [];
    const engineOption = options.find((option) => String(option.keyword).toLowerCase() === 'engine');
    if (!engineOption || typeof engineOption.value !== 'string') return;
    const engine = engineOption.value;
    const family = context.flavor === 'mariadb' ? 'mariadb' : 'mysql';
    if (BUILT_IN[family].includes(engine.toUpperCase())) return;
    const strict = sqlModeSet(context.server.sqlMode.session, context.flavor).has('NO_ENGINE_SUBSTITUTION');
    const table = targetTableName(context.ast)?.table ?? '';
    const original = new RegExp(`engine\\s*=?\\s*\`?${engine}`, 'i').exec(context.sql)?.[0];
    context.report({
      messageId: strict ? 'error' : 'substituted',
      data: { engine, flavor: family === 'mariadb' ? 'MariaDB' : 'MySQL' },
      severity: strict ? 'error' : 'warning',
      span: spanFor(context.sql, null, original ?? engine),
      table,
      columns: [],
      expression: original ?? engine,
      predictedError: strict
        ? predictError(1286, context.flavor, {
            engine: original?.replace(/^engine\s*=?\s*`?/i, '') ?? engine,
          })
        : predictError(1266, context.flavor, { engine: 'InnoDB', table }, true),
      notes: ['Check SHOW ENGINES on the target server; use InnoDB unless the engine is really installed.'],
    });
  },
});
