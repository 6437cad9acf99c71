/** Configuration, read once from the environment (documented in the README). */
import { defaultPricesFile } from './domain/prices.ts';

export type Environment = 'sandbox' | 'production';

export interface Config {
  port: number;
  env: Environment;
  /** PostgreSQL connection string; the embedded SQLite database is used when absent. */
  databaseUrl: string | undefined;
  /** Folder of the embedded database, or `:memory:`. */
  dataDir: string;
  /** A full API key the sandbox makes sure exists at start. */
  seedApiKey: string | undefined;
  /** The API host as partners reach it (JWT `aud`, v1 `next` links). */
  baseUrl: string;
  /** The browser-facing application host (`/auth/launch`). */
  appUrl: string;
  /** Validate responses against the contract too (on by default; the benchmark measures both). */
  validateResponses: boolean;
  logLevel: string;
  /** The sandbox price feed's tokens and currencies. */
  pricesFile: string;
  /** Prices answer 503 for this long after start, as a cold feed would. */
  pricesWarmupMs: number;
  /** How often background jobs (deliveries, settlements) look for due work. */
  jobIntervalMs: number;
}

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, not ${env.PORT}`);
  const environment = env.RAMP_ENV ?? 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new ConfigError(`RAMP_ENV must be sandbox or production, not ${environment}`);
  }
  const baseUrl = (env.RAMP_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const appUrl = (env.RAMP_APP_URL ?? baseUrl).replace(/\/+$/, '');
  for (const [name, value] of [['RAMP_BASE_URL', baseUrl], ['RAMP_APP_URL', appUrl]] as const) {
    if (!URL.canParse(value)) throw new ConfigError(`${name} must be an absolute URL, not ${value}`);
  }
  return {
    port,
    env: environment,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.RAMP_DATA_DIR ?? './.ramp-data',
    seedApiKey: env.RAMP_SEED_API_KEY || undefined,
    baseUrl,
    appUrl,
    validateResponses: env.RAMP_VALIDATE_RESPONSES !== 'false',
    logLevel: env.LOG_LEVEL ?? 'info',
    pricesFile: env.RAMP_PRICES_FILE ?? defaultPricesFile,
    pricesWarmupMs: Number(env.RAMP_PRICES_WARMUP_MS ?? 0),
    jobIntervalMs: Number(env.RAMP_JOB_INTERVAL_MS ?? 200),
  };
}
