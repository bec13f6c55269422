// Analysis as a service: picks the target and schema (live or offline DDL) and runs the core analyzer.

import { analyze } from '../../core/analyze.js';
import { DEFAULT_TARGET, type Flavor } from '../../core/flavors/index.js';
import type { AnalysisReport } from '../../core/model/report.js';
import { EMPTY_SCHEMA, type SchemaModel } from '../../core/model/schema.js';
import { offlineServerInfo, type ServerInfo, type TargetSource } from '../../core/model/server-info.js';
import { schemaFromDdl } from '../../core/schema/ddl.js';
import { parseVersion } from '../../core/flavors/version.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Connection } from 'mysql2/promise';
import { applySelectivity, selectivityRequests } from '../../core/advice/index.js';
import { sampleSelectivity, type SampleOptions } from './selectivity.js';

export interface OfflineTarget {
  flavor: Flavor;
  version: string;
}

/** Validate a `--flavor/--server-version` pair or UI choice. */
export function offlineTarget(flavor: string | undefined, version: string | undefined): OfflineTarget {
  const chosenFlavor = (flavor ?? DEFAULT_TARGET.flavor).toLowerCase();
  if (chosenFlavor !== 'mysql' && chosenFlavor !== 'mariadb' && chosenFlavor !== 'percona') {
    throw new AdvisorError('INVALID_INPUT', `Unknown flavor '${flavor}': use mysql, mariadb or percona.`);
  }
  const chosenVersion = version ?? (chosenFlavor === 'mariadb' ? '10.11.0' : DEFAULT_TARGET.version);
  if (!parseVersion(chosenVersion)) {
    throw new AdvisorError(
      'INVALID_INPUT',
      `Invalid server version '${version}': use a version such as 8.0.33 or 10.11.6.`,
    );
  }
  return { flavor: chosenFlavor, version: chosenVersion };
}

/** Offline schema from DDL text; DDL problems are reported as errors of the analysis input. */
export function offlineSchema(ddl: string | undefined, flavor: Flavor): SchemaModel {
  if (!ddl?.trim()) return EMPTY_SCHEMA;
  const { schema, problems } = schemaFromDdl(ddl, flavor);
  if (problems.length > 0 && schema.tables.length === 0) {
    const first = problems[0];
    throw new AdvisorError(
      'PARSE_FAILED',
      `The schema DDL could not be read: ${first?.message ?? 'no CREATE TABLE found'}`,
      {
        hint: 'Provide CREATE TABLE statements (for example from mysqldump --no-data or SHOW CREATE TABLE).',
      },
    );
  }
  return schema;
}

/** Run the analyzer for a resolved server and schema. */
export function runAnalysis(
  sql: string,
  server: ServerInfo,
  source: TargetSource,
  schema: SchemaModel,
  options: AnalysisOptions = {},
): AnalysisReport {
  const effective =
    options.sqlMode === undefined
      ? server
      : { ...server, sqlMode: { ...server.sqlMode, session: options.sqlMode } };
  return analyze(sql, {
    server: effective,
    source,
    schema,
    ...(options.disabledRules?.length
      ? { disabledRules: options.disabledRules.map((id) => id.replace(/\./g, '').toUpperCase()) }
      : {}),
  });
}

export interface AnalysisOptions {
  /** Check statements under this (validated) sql_mode instead of the server's session mode. */
  sqlMode?: string;
  /** Rule IDs disabled for this analysis (from the workspace or `--disable`). */
  disabledRules?: readonly string[];
}

/**
 * Analysis against a live server: the report of {@link runAnalysis}, then selectivity measured on the
 * server (bounded COUNT(DISTINCT …) samples, read-only, time-limited) and weighed into the advice.
 * Sampling never fails the analysis: without numbers the report is the offline one.
 */
export async function runLiveAnalysis(
  connection: Connection,
  sql: string,
  server: ServerInfo,
  schema: SchemaModel,
  options: AnalysisOptions & { sample?: SampleOptions | false } = {},
): Promise<AnalysisReport> {
  const report = runAnalysis(sql, server, 'dsn', schema, options);
  if (!server.database || options.sample === false || schema.source !== 'live') return report;
  const requests = selectivityRequests(report, server.flavor);
  if (requests.length === 0) return report;
  const samples = await sampleSelectivity(
    connection,
    server,
    server.database,
    requests,
    options.sample ?? {},
  ).catch(() => []);
  return applySelectivity(report, samples, server.flavor);
}

/** Analysis without a server. */
export function runOfflineAnalysis(
  sql: string,
  target: OfflineTarget,
  source: TargetSource,
  ddl?: string,
  options: AnalysisOptions = {},
): AnalysisReport {
  const server = offlineServerInfo(target.flavor, target.version);
  return runAnalysis(sql, server, source, offlineSchema(ddl, target.flavor), options);
}
