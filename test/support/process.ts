/**
 * The real server as a child process (`server/main.ts`, as `npm start` runs it), for the
 * tests that need what only a process has: its own timeouts, a SIGKILL, its memory, a
 * second process on the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { root } from './documents.ts';
import { waitBudget } from './wait.ts';

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
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${waitBudget} ms:\n${output.join('\n')}`)), waitBudget);
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
    socket.setTimeout(options.timeoutMs ?? waitBudget, () => {
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

/**
 * A round-robin proxy in front of server processes, each request to the next in turn, as a
 * load balancer would: a request its process cannot answer (the process died, the
 * connection dropped) is a 502.
 */
export async function roundRobin(targets: ServerProcess[]) {
  let next = 0;
  const server = http.createServer((req, res) => {
    const target = targets[next++ % targets.length]!;
    const upstream = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
