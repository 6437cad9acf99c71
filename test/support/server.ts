/**
 * A real server for HTTP tests: the app from server/app.ts on a random port, on a fresh
 * embedded database (or, with DATABASE_URL set, a fresh PostgreSQL database of its own),
 * with a known partner key. Response validation stays on, so any drift fails the test.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createApp } from '../../server/app.ts';
import { createHttpServer } from '../../server/http/server.ts';
import { readConfig, type Config } from '../../server/config.ts';
import { loadContract, type Contract } from '../../server/shared/contract.ts';
import { bootstrapSeedKey } from '../../server/features/apiKeys/bootstrap.ts';
import { formatApiKey, newKeyId } from '../../server/features/apiKeys/rules.ts';
import { handlers } from '../../server/handlers/index.ts';
import type { Handlers } from '../../server/handlers/types.ts';
import { PriceFeed } from '../../server/features/prices/feed.ts';
import { startJobs, timers, type RunningJobs } from '../../server/jobs.ts';
import { createLogger, logAvailability } from '../../server/logger.ts';
import type { Clock, Services } from '../../server/services.ts';
import { openStorage, type Storage } from '../../server/storage/database.ts';
import { apiClient, sendRaw, type Api, type RawAnswer, type RawRequest } from './api.ts';
import { freshPostgresDatabase } from './storage.ts';

let contract: Contract | undefined;

export interface TestServer {
  url: string;
  /** The partner's sandbox key. */
  key: string;
  partnerId: string;
  services: Services;
  logs: string[];
  /** Background jobs, running every 50 ms; `tick()` runs them all once now. */
  jobs: RunningJobs;
  /** The typed client (test/support/api.ts) acting with the partner's key. */
  api: Api;
  /** The typed client acting with another key, or with none (`null`). */
  as(key: string | null): Api;
  /** Deliberately bad requests only (a body the contract refuses, a missing header): see test/support/api.ts. */
  sendRaw(method: string, path: string, options?: RawRequest): Promise<RawAnswer>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    /** A PostgreSQL database another test server made: shared as it is, never dropped by this one. */
    databaseUrl?: string;
    /** Handlers in place of the server's own, to prove what the app does around a handler (a broken answer). */
    handlers?: Partial<Handlers>;
  } = {},
): Promise<TestServer> {
  contract ??= loadContract();
  const partnerId = crypto.randomUUID();
  const production = options.env?.RAMP_ENV === 'production';
  const key = formatApiKey(production ? 'prod' : 'sand', newKeyId(), partnerId);
  const database = options.databaseUrl === undefined && process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL, 'ramp_test') : undefined;
  const config: Config = {
    ...readConfig({ PORT: '0', RAMP_DATA_DIR: ':memory:', RAMP_SEED_API_KEY: key, RAMP_JOB_INTERVAL_MS: '50', ...options.env }),
    databaseUrl: options.databaseUrl ?? database?.url,
  };
  const logs: string[] = [];
  const sink = new Writable({ write(chunk, _enc, done) { logs.push(String(chunk)); done(); } });
  const logger = createLogger('info', sink);
  // The process's own account of an outage (server/main.ts).
  const storage: Storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, onAvailabilityChange: logAvailability(logger) });
  const clock = options.clock ?? { now: () => new Date() };
  const prices = new PriceFeed(config.pricesFile, new Date(clock.now().getTime() + config.pricesWarmupMs));
  const services: Services = { config, storage, contract, logger, clock, realClock: clock, prices, timers };
  await bootstrapSeedKey(storage, config, clock.now());
  const jobs = startJobs(services, config.jobIntervalMs);
  // The server main.ts runs: the app on createHttpServer's requests and responses.
  const server = createHttpServer(createApp(services, { ...handlers, ...options.handlers })).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const direct = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // npm run test:prism: the tests reach the server through Prism's validating proxy.
  const front = process.env.RAMP_TEST_PRISM === '1' ? await (await import('../contract/prism-front.ts')).prismInFront(direct) : undefined;
  const url = front?.url ?? direct;
  return {
    url,
    key,
    partnerId,
    services,
    logs,
    jobs,
    api: apiClient(url, key),
    as: (other) => apiClient(url, other),
    // A path sent as written goes to the server itself: Prism in front (test:prism) would
    // remove its dot segments as every URL client does.
    sendRaw: (method, path, o) => sendRaw(o?.verbatimPath ? direct : url, key, method, path, o),
    async close() {
      await front?.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await jobs.stop();
      await storage.close();
      await database?.drop();
    },
  };
}
