// The API contract, declared once: method names, request validation (zod) and reply types.
// Electron IPC, the web bridge and the CLI all go through these.

import { z } from 'zod';
import type { AnalysisReport } from '../core/model/report.js';
import type { ServerInfo } from '../core/model/server-info.js';
import type { WireError } from './errors.js';
import { apiMethods, type ApiMethod } from './methods.js';
import { explainSchemas, type ExplainApi } from './api/explain.js';
import { uiSchemas, type UiApi } from './api/ui.js';
import { sqlmodeSchemas, type SqlModeApi } from './api/sqlmode.js';
import { locksSchemas, type LocksApi } from './api/locks.js';
import { workspaceSchemas, type WorkspaceApi } from './api/workspace.js';
import { captureSchemas, type CaptureApi } from './api/capture.js';
import { profilesSchemas, type ProfilesApi } from './api/profiles.js';
import { connectionStatusSchemas, type ConnectionStatusApi } from './api/connection-status.js';
import { schemaSchemas, type SchemaApi } from './api/schema.js';
import { ddlSchemas, type DdlApi } from './api/ddl.js';
import { filesSchemas, type FilesApi } from './api/files.js';
import { indexesSchemas, type IndexesApi } from './api/indexes.js';
import { querySchemas, type QueryApi } from './api/query.js';
import { historySchemas, type HistoryApi } from './api/history.js';
import { sqlFileSchemas, type SqlFileApi } from './api/sql-file.js';

export { apiMethods, type ApiMethod };

/** Server flavors accepted in requests. */
export const flavorSchema = z.enum(['mysql', 'mariadb', 'percona']);
const flavor = flavorSchema;

/** Connect from a DSN or from form fields. The password never comes back out of the services. */
export const connectionParamsSchema = z.union([
  z.object({
    dsn: z.string().min(1),
    connectTimeoutMs: z.number().int().positive().optional(),
    allowWhatIf: z.boolean().optional(),
  }),
  z.object({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).default(3306),
    user: z.string().min(1),
    password: z.string().default(''),
    database: z.string().optional(),
    tls: z.enum(['off', 'required', 'verify']).default('off'),
    connectTimeoutMs: z.number().int().positive().optional(),
    /** The user marked this connection as a sandbox where what-if indexes may be built. */
    allowWhatIf: z.boolean().optional(),
  }),
]);
export type ConnectionParams = z.input<typeof connectionParamsSchema>;

export const analyzeRequestSchema = z.object({
  sql: z.string(),
  /** Use the live server's schema and version. */
  connectionId: z.string().optional(),
  /** Offline schema: CREATE TABLE statements. */
  schemaSql: z.string().optional(),
  /** Offline schema: a schema file loaded with schema.loadFile (instead of schemaSql). */
  schemaId: z.string().min(1).max(100).optional(),
  /** Offline target when not connected. */
  target: z.object({ flavor, version: z.string() }).optional(),
  /** Rule IDs not to run (disabled in the workspace). */
  disabledRules: z
    .array(z.string().regex(/^[A-Za-z0-9.]{1,20}$/))
    .max(200)
    .optional(),
  /** Opt-in rules (off by default, e.g. QRY001) to run as well. */
  enabledRules: z
    .array(z.string().regex(/^[A-Za-z0-9.]{1,20}$/))
    .max(200)
    .optional(),
});
export type AnalyzeRequest = z.input<typeof analyzeRequestSchema>;

export const connectionRefSchema = z.object({ connectionId: z.string().min(1) });

/** Request schemas by method; the bridge and IPC validate every request against these. */
export const requestSchemas = {
  'app.info': z.object({}).optional(),
  'connection.open': connectionParamsSchema,
  'connection.close': connectionRefSchema,
  'analyze.run': analyzeRequestSchema,
  ...explainSchemas,
  ...uiSchemas,
  ...sqlmodeSchemas,
  ...workspaceSchemas,
  ...locksSchemas,
  ...captureSchemas,
  ...profilesSchemas,
  ...connectionStatusSchemas,
  ...schemaSchemas,
  ...ddlSchemas,
  ...filesSchemas,
  ...indexesSchemas,
  ...querySchemas,
  ...historySchemas,
  ...sqlFileSchemas,
} as const satisfies Record<ApiMethod, z.ZodType>;

export interface AppInfo {
  name: string;
  version: string;
  mode: 'electron' | 'web';
  /** Things the user must know at start, e.g. a slow-log window a crash left open (restored on connect). */
  notices?: string[];
}

export interface OpenResult {
  connectionId: string;
  server: ServerInfo;
  /** `user@host:port` — never the password */
  label: string;
  /** What Sargable did on connect that the user must know, e.g. a slow-log window restored after a crash. */
  notices?: string[];
}

/** Every method the services offer. Implemented by `src/main/handlers/index.ts` (one module per area in handlers/). */
export interface AdvisorApi
  extends
    UiApi,
    ExplainApi,
    SqlModeApi,
    WorkspaceApi,
    LocksApi,
    CaptureApi,
    ProfilesApi,
    ConnectionStatusApi,
    SchemaApi,
    DdlApi,
    FilesApi,
    IndexesApi,
    QueryApi,
    HistoryApi,
    SqlFileApi {
  'app.info'(request?: Record<string, never>): Promise<AppInfo>;
  'connection.open'(request: ConnectionParams): Promise<OpenResult>;
  'connection.close'(request: { connectionId: string }): Promise<void>;
  'analyze.run'(request: AnalyzeRequest): Promise<AnalysisReport>;
}

// Compile-time check: the method list, the schemas and the interface name the same methods.
type SameKeys<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never] ? true : false;
const _methodsMatch: SameKeys<AdvisorApi, typeof requestSchemas> = true;
void _methodsMatch;

export type Reply<T> = { ok: true; value: T } | { ok: false; error: WireError };

export function isApiMethod(name: string): name is ApiMethod {
  return (apiMethods as readonly string[]).includes(name);
}
