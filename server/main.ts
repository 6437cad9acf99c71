/** npm start: reads the configuration, opens storage, makes sure a key exists, listens. */
import { createApp } from './app.ts';
import { ConfigError, readConfig, type Config } from './config.ts';
import { loadContract } from './shared/contract.ts';
import { bootstrapSeedKey } from './features/apiKeys/bootstrap.ts';
import { PriceFeed } from './features/prices/feed.ts';
import { handlers } from './handlers/index.ts';
import { createHttpServer } from './http/server.ts';
import { startJobs, timers } from './jobs.ts';
import { createLogger, logAvailability } from './logger.ts';
import { systemClock, type Services } from './services.ts';
import { openStorage } from './storage/database.ts';

export async function start(env: NodeJS.ProcessEnv = process.env) {
  const config = readConfig(env);
  const logger = createLogger(config.logLevel);
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, onAvailabilityChange: logAvailability(logger) }).catch((error: unknown) => {
    throw new ConfigError(`cannot open the database ${whereIsTheDatabase(config)}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const prices = new PriceFeed(config.pricesFile, new Date(Date.now() + config.pricesWarmupMs));
  const services: Services = { config, storage, contract: loadContract(), logger, clock: systemClock, realClock: systemClock, prices, timers };
  const seeded = await bootstrapSeedKey(storage, config, systemClock.now());
  const app = createApp(services, handlers);
  const running = startJobs(services, config.jobIntervalMs);
  // Slow clients (slowloris) are cut off: headers and whole requests have deadlines, checked
  // every second; the 408 goes out and the connection is closed.
  const server = createHttpServer(
    app,
    { headersTimeout: config.headersTimeoutMs, requestTimeout: Math.max(config.requestTimeoutMs, config.headersTimeoutMs), connectionsCheckingInterval: 1000 },
  ).listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject)).catch(async (error: NodeJS.ErrnoException) => {
    await running.stop();
    await storage.close();
    if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') throw new ConfigError(`cannot listen on HOST ${config.host}: no such address on this machine`);
    throw error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new ConfigError(`cannot listen on PORT ${config.port}: ${error.code === 'EADDRINUSE' ? 'already in use' : 'permission denied'}`) : error;
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, host: config.host, env: config.env, storage: storage.engine, baseUrl: config.baseUrl }, `ramp ${config.env} listening on http://localhost:${port}`);
  if (config.env === 'sandbox') process.stdout.write(startNotice(port, seeded.createdKey, config));
  const stop = async () => {
    await new Promise((resolve) => server.close(resolve));
    await running.stop();
    await storage.close();
  };
  return { server, port, services, jobs: running, stop };
}

/**
 * What a person starting the sandbox needs next: the base URL, where the API reference and the
 * console are, and the key to paste in it (a partner's CI reads the first and the last from here). The key is
 * printed once, on the start that made it (only its hash is stored); a later start says how
 * to have one again instead of saying nothing.
 */
function startNotice(port: number, createdKey: string | undefined, config: Config): string {
  const console = `Sandbox API: http://localhost:${port}\nAPI reference: http://localhost:${port}/docs\nSandbox console: http://localhost:${port}/sandbox/console`;
  if (createdKey) return `\n${console}\nSandbox API key (shown once, keep it): ${createdKey}\n\n`;
  if (config.seedApiKey) return `\n${console} (sign in with RAMP_SEED_API_KEY)\n\n`;
  return `\n${console}\nThe partner's key was printed by the start that made it, and only its hash is kept. For a known key, set RAMP_SEED_API_KEY=api_sand:<key_id>:<org_id>; for a new partner, start on an empty RAMP_DATA_DIR.\n\n`;
}

/** Calls `stop` once this process's parent is gone (the process is then adopted by another). */
function whenOrphaned(stop: () => void) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop();
  }, 500);
  watch.unref();
}

/** The database named in an error, without the credentials of DATABASE_URL. */
function whereIsTheDatabase(config: Config): string {
  if (!config.databaseUrl) return `in RAMP_DATA_DIR (${config.dataDir})`;
  const url = URL.canParse(config.databaseUrl) ? new URL(config.databaseUrl) : undefined;
  return url ? `at DATABASE_URL (${url.hostname}:${url.port || 5432}${url.pathname})` : 'at DATABASE_URL (not a URL)';
}

if (process.argv[1] && import.meta.filename === (await import('node:fs')).realpathSync(process.argv[1])) {
  try {
    const running = await start();
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void running.stop().then(() => {
        running.services.logger.info('ramp stopped');
        process.exit(0);
      });
    };
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
    // `npx @ramp/sandbox` runs this bin under `sh -c`, and a SIGTERM to npx ends that shell
    // (dash, Debian's and Ubuntu's sh) without reaching the sandbox: started by npx, the
    // sandbox stops once the shell that started it is gone, as it would on the signal.
    if (process.env.npm_command === 'exec') whenOrphaned(stop);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
