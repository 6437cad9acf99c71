/**
 * The real server as a child process (`server/main.ts`, as `npm start` runs it), for the
 * tests that need what only a process has: its own timeouts, a SIGKILL, its memory, a
 * second process on the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStorage, type Storage } from '../../server/storage/database.ts';
import { root } from '../support/documents.ts';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Every line the process wrote (JSON log lines and the rest). */
  output: string[];
  /** Resident memory of the process, in bytes (Linux). */
  rss(): number;
  /** SIGKILL, as a crash would: nothing runs after it. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** A fresh sandbox key for a new partner organization. */
export const newSeedKey = () => `api_sand:${randomBytes(16).toString('hex')}:${randomUUID()}`;

/** Starts `server/main.ts`; it must log at info level or below (its "listening" line gives the port). */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', RAMP_JOB_INTERVAL_MS: '50', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let pending = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 90 s:\n${output.join('\n')}`)), 90_000);
    const onData = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        output.push(line);
        const listening = /"port":(\d+).*listening on/.exec(line);
        if (listening) {
          clearTimeout(timer);
          resolve(Number(listening[1]));
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output,
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One raw HTTP/1.1 exchange over a socket: what fetch cannot send (bytes outside Latin-1, slow writes). */
export function rawRequest(port: number, request: Buffer | string, options: { timeoutMs?: number } = {}): Promise<{ status: number; text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(options.timeoutMs ?? 15_000, () => {
      socket.destroy();
      reject(new Error('no answer'));
    });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text, closed: true });
    });
    socket.write(request);
  });
}

export interface SharedDatabase {
  /** What the server processes need in their environment to open it. */
  env: Record<string, string>;
  /** Opens it from the test, to read what the processes left. */
  open(): Promise<Storage>;
  drop(): Promise<void>;
}

/**
 * A database several processes open: a fresh PostgreSQL database on the server named by
 * DATABASE_URL when it is set, else a SQLite file in a fresh folder.
 */
export async function sharedDatabase(): Promise<SharedDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'ramp-robustness-'));
    return { env: { RAMP_DATA_DIR: dir, DATABASE_URL: '' }, open: () => openStorage({ dataDir: dir }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `ramp_robustness_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openStorage({ databaseUrl: url.toString() }),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
