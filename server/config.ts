/** Configuration, read once from the environment (documented in docs/configuration.md). */
import { join } from 'node:path';

/** The sandbox price feed shipped with the server (RAMP_PRICES_FILE replaces it). */
export const defaultPricesFile = join(import.meta.dirname, 'data', 'prices.json');

export type Environment = 'sandbox' | 'production';

export interface Config {
  port: number;
  /** The address to listen on: loopback unless the sandbox is to be reached from elsewhere (a container sets 0.0.0.0). */
  host: string;
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
  /** Validate requests against the contract (on by default; `false` only for the benchmark's comparison). */
  validateRequests: boolean;
  logLevel: string;
  /** The sandbox price feed's tokens and currencies. */
  pricesFile: string;
  /** Prices answer 503 for this long after start, as a cold feed would. */
  pricesWarmupMs: number;
  /** How often background jobs (deliveries, settlements) look for due work. */
  jobIntervalMs: number;
  /** v1 sandbox: seconds from an onramp's deposit to the delivery of its tokens. */
  v1DeliverySeconds: number;
  /** v1: seconds a completed offramp can still be reversed before it is finalized. */
  v1ReversalWindowSeconds: number;
  /** Webhooks: the wait between two attempts of a delivery (5 s, as the Webhooks sections of v1.yaml and v2.yaml say; tests shorten it). */
  webhookRetryDelayMs: number;
  /** Webhooks: how long one attempt waits for the receiver's answer before it counts as a timeout. */
  webhookTimeoutMs: number;
  /**
   * Requests to partners' URLs (webhook deliveries, JWKS fetches) reach public addresses only
   * (server/shared/outbound.ts): always in production, and in a sandbox shared by several
   * partners when RAMP_OUTBOUND_PUBLIC_ONLY is true.
   */
  outboundPublicOnly: boolean;
  /** Webhooks: a PEM file of extra CA certificates trusted for https deliveries (local receivers). */
  webhookCaFile: string | undefined;
  /**
   * Webhooks: how often the delivery worker looks for due deliveries, which a commit that
   * records an event also does at once. Undefined: deliveries run with the other jobs, every
   * jobIntervalMs, and nothing wakes them (so tests that tick jobs by hand stay in control).
   */
  webhookPollMs: number | undefined;
  /** Webhooks: attempts in flight at once per process. */
  webhookConcurrency: number;
  /** v2 reads (GET) allowed per organization and second before 429 `rate-limit-exceeded`; 0 is no limit. */
  rateLimitReadsPerSecond: number;
  /** v2 reads (GET) allowed per API key and second, whichever organizations they are for; 0 is no limit. Defaults to rateLimitReadsPerSecond. */
  rateLimitKeyReadsPerSecond: number;
  /** The length of one counting window; a window allows readsPerSecond × its seconds. */
  rateLimitWindowSeconds: number;
  /** A client must send its request headers within this time, its whole request within requestTimeoutMs (slow clients). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Partners made by POST /sandbox/partners that may exist at once (409 conflict past it). */
  sandboxPartnerLimit: number;
  /** A partner made by POST /sandbox/partners is deleted once its keys made no request for this long. */
  sandboxPartnerIdleSeconds: number;
}

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, not ${env.PORT}`);
  const host = env.HOST ?? '127.0.0.1';
  if (host.trim() === '' || /\s/.test(host)) throw new ConfigError(`HOST must be an address to listen on, such as 127.0.0.1 or 0.0.0.0, not "${env.HOST}"`);
  const environment = env.RAMP_ENV ?? 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new ConfigError(`RAMP_ENV must be sandbox or production, not ${environment}`);
  }
  const baseUrl = (env.RAMP_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const appUrl = (env.RAMP_APP_URL ?? baseUrl).replace(/\/+$/, '');
  for (const [name, value] of [['RAMP_BASE_URL', baseUrl], ['RAMP_APP_URL', appUrl]] as const) {
    if (!URL.canParse(value)) throw new ConfigError(`${name} must be an absolute URL, not ${value}`);
  }
  // Durations and switches by naming convention, so a typo fails the start instead of
  // silently becoming NaN or the default.
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (/^RAMP_\w+_(MS|SECONDS|PER_SECOND)$/.test(name) && !(Number.isFinite(Number(value)) && Number(value) >= 0)) {
      throw new ConfigError(`${name} must be a number >= 0, not ${value}`);
    }
    if (/^RAMP_(VALIDATE_\w+|OUTBOUND_PUBLIC_ONLY)$/.test(name) && value !== 'true' && value !== 'false') throw new ConfigError(`${name} must be true or false, not ${value}`);
  }
  const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (env.LOG_LEVEL !== undefined && !logLevels.includes(env.LOG_LEVEL)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, not ${env.LOG_LEVEL}`);
  }
  return {
    port,
    host,
    env: environment,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.RAMP_DATA_DIR ?? './.ramp-data',
    seedApiKey: env.RAMP_SEED_API_KEY || undefined,
    baseUrl,
    appUrl,
    validateResponses: env.RAMP_VALIDATE_RESPONSES !== 'false',
    validateRequests: env.RAMP_VALIDATE_REQUESTS !== 'false',
    logLevel: env.LOG_LEVEL ?? 'info',
    pricesFile: env.RAMP_PRICES_FILE ?? defaultPricesFile,
    pricesWarmupMs: Number(env.RAMP_PRICES_WARMUP_MS ?? 0),
    jobIntervalMs: Number(env.RAMP_JOB_INTERVAL_MS ?? 200),
    v1DeliverySeconds: Number(env.RAMP_V1_DELIVERY_SECONDS ?? 2),
    v1ReversalWindowSeconds: Number(env.RAMP_V1_REVERSAL_WINDOW_SECONDS ?? (environment === 'production' ? 72 * 3600 : 30)),
    webhookRetryDelayMs: Number(env.RAMP_WEBHOOK_RETRY_DELAY_MS ?? 5000),
    webhookTimeoutMs: Number(env.RAMP_WEBHOOK_TIMEOUT_MS ?? 10000),
    outboundPublicOnly: environment === 'production' || env.RAMP_OUTBOUND_PUBLIC_ONLY === 'true',
    webhookCaFile: env.RAMP_WEBHOOK_CA_FILE || undefined,
    webhookPollMs: env.RAMP_WEBHOOK_POLL_MS ? Math.max(1, Number(env.RAMP_WEBHOOK_POLL_MS)) : env.RAMP_JOB_INTERVAL_MS ? undefined : 25,
    webhookConcurrency: positiveInteger(env, 'RAMP_WEBHOOK_CONCURRENCY', 64),
    rateLimitReadsPerSecond: Number(env.RAMP_RATE_LIMIT_READS_PER_SECOND || 0),
    rateLimitKeyReadsPerSecond: Number(env.RAMP_RATE_LIMIT_KEY_READS_PER_SECOND || env.RAMP_RATE_LIMIT_READS_PER_SECOND || 0),
    rateLimitWindowSeconds: Math.max(1, Math.round(Number(env.RAMP_RATE_LIMIT_WINDOW_SECONDS || 1))),
    headersTimeoutMs: Number(env.RAMP_HEADERS_TIMEOUT_MS || 20_000),
    requestTimeoutMs: Number(env.RAMP_REQUEST_TIMEOUT_MS || 60_000),
    sandboxPartnerLimit: positiveInteger(env, 'RAMP_SANDBOX_PARTNER_LIMIT', 50),
    sandboxPartnerIdleSeconds: Number(env.RAMP_SANDBOX_PARTNER_IDLE_SECONDS || 24 * 3600),
  };
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^[1-9][0-9]{0,5}$/.test(value)) throw new ConfigError(`${name} must be a whole number >= 1, not ${value}`);
  return Number(value);
}
