/**
 * Configuration and start-up: the defaults docs/configuration.md documents, one clear line for every
 * configuration mistake, and `npm start` on a fresh data folder: one log line with the
 * address and a printed sandbox key that works, a second start that prints none.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { formatApiKey, newKeyId } from '../../server/features/apiKeys/rules.ts';
import { eventually, waitBudget, testBudget } from '../support/wait.ts';

/**
 * The server's source run in one process, as test/support/process.ts runs it: the tsx command
 * would put its own process in front, which relays SIGTERM to the server but kills it when the
 * server has not reported the signal back within 30 ms (exit 143 on a busy machine).
 */
const tsxServer = ['--import', 'tsx', 'server/main.ts'] as const;

const root = join(import.meta.dirname, '..', '..');

describe('readConfig', () => {
  it('has the documented defaults', () => {
    expect(readConfig({})).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      env: 'sandbox',
      databaseUrl: undefined,
      dataDir: './.ramp-data',
      seedApiKey: undefined,
      baseUrl: 'http://localhost:3000',
      appUrl: 'http://localhost:3000',
      validateResponses: true,
      logLevel: 'info',
    });
    expect(readConfig({ PORT: '8080', HOST: '0.0.0.0', RAMP_BASE_URL: 'https://api.sandbox.example/' })).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      baseUrl: 'https://api.sandbox.example',
      appUrl: 'https://api.sandbox.example',
    });
    expect(readConfig({ RAMP_ENV: 'production', DATABASE_URL: 'postgres://db/ramp', RAMP_APP_URL: 'https://app.example' })).toMatchObject({
      env: 'production',
      databaseUrl: 'postgres://db/ramp',
      appUrl: 'https://app.example',
    });
  });

  it('applies the public-address rule in production always, in the sandbox when RAMP_OUTBOUND_PUBLIC_ONLY is true', () => {
    expect(readConfig({}).outboundPublicOnly).toBe(false);
    expect(readConfig({ RAMP_OUTBOUND_PUBLIC_ONLY: 'true' }).outboundPublicOnly).toBe(true);
    expect(readConfig({ RAMP_ENV: 'production' }).outboundPublicOnly).toBe(true);
    expect(readConfig({ RAMP_ENV: 'production', RAMP_OUTBOUND_PUBLIC_ONLY: 'false' }).outboundPublicOnly).toBe(true);
  });

  it('gives a key the organizations\' read budget unless RAMP_RATE_LIMIT_KEY_READS_PER_SECOND says otherwise', () => {
    expect(readConfig({})).toMatchObject({ rateLimitReadsPerSecond: 0, rateLimitKeyReadsPerSecond: 0 });
    expect(readConfig({ RAMP_RATE_LIMIT_READS_PER_SECOND: '5' })).toMatchObject({ rateLimitReadsPerSecond: 5, rateLimitKeyReadsPerSecond: 5 });
    expect(readConfig({ RAMP_RATE_LIMIT_READS_PER_SECOND: '5', RAMP_RATE_LIMIT_KEY_READS_PER_SECOND: '20' })).toMatchObject({ rateLimitKeyReadsPerSecond: 20 });
    expect(readConfig({ RAMP_RATE_LIMIT_READS_PER_SECOND: '5', RAMP_RATE_LIMIT_KEY_READS_PER_SECOND: '0' })).toMatchObject({ rateLimitKeyReadsPerSecond: 0 });
  });

  it('refuses a bad value with a message that names the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /^PORT must be a port number, not abc$/],
      [{ PORT: '70000' }, /^PORT/],
      [{ HOST: '' }, /^HOST must be an address to listen on/],
      [{ HOST: 'local host' }, /^HOST must be an address to listen on/],
      [{ RAMP_ENV: 'prod' }, /^RAMP_ENV must be sandbox or production, not prod$/],
      [{ RAMP_BASE_URL: 'api.example' }, /^RAMP_BASE_URL must be an absolute URL/],
      [{ RAMP_APP_URL: '/app' }, /^RAMP_APP_URL must be an absolute URL/],
      [{ RAMP_JOB_INTERVAL_MS: 'fast' }, /^RAMP_JOB_INTERVAL_MS must be a number >= 0, not fast$/],
      [{ RAMP_PRICES_WARMUP_MS: '-1' }, /^RAMP_PRICES_WARMUP_MS/],
      [{ RAMP_VALIDATE_RESPONSES: 'no' }, /^RAMP_VALIDATE_RESPONSES must be true or false, not no$/],
      [{ RAMP_OUTBOUND_PUBLIC_ONLY: 'yes' }, /^RAMP_OUTBOUND_PUBLIC_ONLY must be true or false, not yes$/],
      [{ RAMP_RATE_LIMIT_KEY_READS_PER_SECOND: 'many' }, /^RAMP_RATE_LIMIT_KEY_READS_PER_SECOND must be a number >= 0, not many$/],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    ];
    for (const [env, message] of cases) expect(() => readConfig(env), JSON.stringify(env)).toThrow(message);
  });
});

/** A clean environment: nothing of the test run (DATABASE_URL, RAMP_*) leaks into the child. */
function cleanEnv(extra: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(RAMP_|DATABASE_URL$|PORT$|LOG_LEVEL$)/.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

interface Started {
  stdout: string[];
  url: string;
  stop(): Promise<number | null>;
}

/** Runs a command until its server logs the address (or it exits). */
function run(command: string, args: string[], env: Record<string, string>): Promise<Started & { exit?: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: string[] = [];
    let stderr = '';
    let buffer = '';
    let done = false;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const stop = async () => {
      child.kill('SIGTERM');
      return exited;
    };
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      stdout.push(...lines.filter((line) => line.trim() !== ''));
      const listening = stdout.map((line) => /listening on (http:\/\/[^\s"]+)/.exec(line)).find(Boolean);
      // The key, when there is one, comes right after the address.
      if (listening && !done && (stdout.some((l) => l.includes('Sandbox API key')) || env.RAMP_SEED_API_KEY || env.EXPECT_NO_KEY)) {
        done = true;
        resolve({ stdout, url: listening[1]!, stop, stderr });
      }
    });
    void exited.then((code) => {
      if (!done) {
        done = true;
        resolve({ stdout, url: '', stop, exit: code, stderr });
      }
    });
    setTimeout(() => !done && reject(new Error(`no start within ${(2 * waitBudget) / 1000} s: ${stdout.join('\n')} ${stderr}`)), 2 * waitBudget);
  });
}

// Each start compiles the sources with tsx: seconds, not milliseconds.
describe('npm start', { timeout: 2 * testBudget }, () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ramp-start-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('on a fresh data folder: one log line with the address, a printed key that works, none printed again', async () => {
    const dataDir = fresh();
    const first = await run('npm', ['start', '--silent'], { PORT: '0', RAMP_DATA_DIR: dataDir });
    try {
      const logs = first.stdout.filter((line) => line.startsWith('{'));
      expect(logs).toHaveLength(1);
      const log = JSON.parse(logs[0]!);
      expect(log).toMatchObject({ level: 30, env: 'sandbox', storage: 'sqlite', msg: `ramp sandbox listening on ${first.url}` });
      expect(first.url).toBe(`http://localhost:${log.port}`);
      // Loopback by default: the sandbox is not reachable from the machine's other addresses.
      expect(log.host).toBe('127.0.0.1');
      const outside = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
      if (outside) await expect(fetch(`http://${outside.address}:${log.port}/lookup/country-codes`)).rejects.toThrow();
      expect(first.stdout).toContain(`Sandbox console: ${first.url}/sandbox/console`);
      expect(first.stdout).toContain(`API reference: ${first.url}/docs`);
      expect((await fetch(`${first.url}/docs`)).status).toBe(200);
      const key = /Sandbox API key \(shown once, keep it\): (\S+)/.exec(first.stdout.join('\n'))?.[1];
      expect(key).toMatch(/^api_sand:[0-9a-f]{32}:[0-9a-f-]{36}$/);
      const organizations = await fetch(`${first.url}/organizations`, { headers: { Authorization: key! } });
      expect(organizations.status).toBe(200);
      const own = await fetch(`${first.url}/organization/${key!.split(':')[2]}`, { headers: { Authorization: key! } });
      expect(await own.json()).toMatchObject({ type: 'business', parentOrganizationId: null });
      expect((await fetch(`${first.url}/lookup/country-codes`)).status).toBe(200);
      await first.stop();

      const second = await run('npm', ['start', '--silent'], { PORT: '0', RAMP_DATA_DIR: dataDir, EXPECT_NO_KEY: '1' });
      try {
        expect(second.stdout.join('\n')).not.toContain('Sandbox API key');
        // Instead of silence: how to have a key again.
        await eventually(() => /set RAMP_SEED_API_KEY=.*start on an empty RAMP_DATA_DIR/.test(second.stdout.join('\n')), waitBudget, 'how to have a key again');
        expect((await fetch(`${second.url}/organizations`, { headers: { Authorization: key! } })).status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });

  it('with RAMP_SEED_API_KEY: that key works and no other is printed', async () => {
    const key = formatApiKey('sand', newKeyId(), crypto.randomUUID());
    const started = await run(process.execPath, [...tsxServer], { PORT: '0', RAMP_DATA_DIR: fresh(), RAMP_SEED_API_KEY: key });
    try {
      expect(started.stdout.join('\n')).not.toContain('Sandbox API key');
      expect((await fetch(`${started.url}/organizations`, { headers: { Authorization: key } })).status).toBe(200);
      // SIGTERM stops it cleanly.
      expect(await started.stop()).toBe(0);
    } finally {
      await started.stop();
    }
  });

  it('a configuration mistake: exit code 2 and one line that says what, no stack, no secret', async () => {
    const aFile = join(fresh(), 'file');
    writeFileSync(aFile, '');
    const cases: [Record<string, string>, RegExp][] = [
      [{ RAMP_ENV: 'prod' }, /^configuration error: RAMP_ENV must be sandbox or production, not prod$/],
      [{ RAMP_SEED_API_KEY: 'api_sand:short' }, /^configuration error: RAMP_SEED_API_KEY is not a key of the form/],
      [{ RAMP_SEED_API_KEY: formatApiKey('prod', newKeyId(), crypto.randomUUID()) }, /^configuration error: RAMP_SEED_API_KEY is a prod key but RAMP_ENV is sandbox$/],
      [{ DATABASE_URL: 'postgres://ramp:s3cret@127.0.0.1:1/ramp' }, /^configuration error: cannot open the database at DATABASE_URL \(127\.0\.0\.1:1\/ramp\): .*ECONNREFUSED/],
      // A folder inside a file cannot exist.
      [{ RAMP_DATA_DIR: join(aFile, 'data') }, /^configuration error: cannot open the database in RAMP_DATA_DIR \(.*data\): ENOTDIR/],
    ];
    const results = await Promise.all(cases.map(([env]) => run(process.execPath, [...tsxServer], { PORT: '0', RAMP_DATA_DIR: fresh(), ...env })));
    for (const [i, [env, message]] of cases.entries()) {
      const result = results[i]!;
      expect(result.exit, JSON.stringify(env)).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines, JSON.stringify(env)).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(result.stderr).not.toContain('s3cret');
      expect(result.stdout.join('\n')).not.toContain('Sandbox API key');
    }
  });

  it('a port in use: exit code 2 and one line', async () => {
    const first = await run(process.execPath, [...tsxServer], { PORT: '0', RAMP_DATA_DIR: fresh() });
    try {
      const port = new URL(first.url).port;
      const second = await run(process.execPath, [...tsxServer], { PORT: port, RAMP_DATA_DIR: fresh() });
      expect(second.exit).toBe(2);
      expect(second.stderr.trim()).toBe(`configuration error: cannot listen on PORT ${port}: already in use`);
    } finally {
      await first.stop();
    }
  });
});
