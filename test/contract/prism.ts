/**
 * Prism, the contract's independent judge, for the tests:
 *
 *   startPrism('mock')             answers every operation from the documents alone (the
 *                                  client's tests run against it)
 *   startPrism('proxy', upstream)  forwards to a server and reports every request and
 *                                  response that breaks the documents (`sl-violations`)
 *
 * and the plumbing that puts the proxy in front of a test server without changing what the
 * tests see (startTestServer does this when RAMP_TEST_PRISM=1; `npm run test:prism`):
 *
 *   test ──▶ tap ──▶ prism proxy ──▶ router ──▶ server
 *
 * The tap records each exchange (operation, status, Prism's violations) as a JSON line in
 * RAMP_TEST_PRISM_REPORT and hands the test the server's own answer, byte for byte: the
 * router keeps what the server said for a moment, and Prism's answer only serves to judge
 * it. Prism answers some requests itself: it re-mocks an upstream 501 (a pending operation)
 * and refuses what it cannot forward (a body that is not JSON under a JSON content type,
 * which the tap then sends straight to the server). Those exchanges are recorded as not
 * proxied. Prism runs without `--errors`, which would answer a deliberately invalid
 * request with Prism's own 422 instead of the server's documented error; the run is judged
 * from the records instead (prism-run.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';
import { root } from '../support/documents.ts';
import { waitBudget } from '../support/wait.ts';
import { freePort } from '../support/ports.ts';

export const rampDocument = join(root, 'generated', 'openapi', 'ramp.yaml');
const prismCli = join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export interface Running {
  url: string;
  close(): Promise<void>;
}

export interface RunningPrism extends Running {
  /** The last lines Prism printed, for a failure message. */
  output(): string;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** Starts `prism mock` or `prism proxy` on a free port and waits until it accepts connections. */
export async function startPrism(command: 'mock' | 'proxy', options: { upstream?: string; errors?: boolean; document?: string } = {}): Promise<RunningPrism> {
  const port = await freePort();
  const args = [prismCli, command, options.document ?? rampDocument];
  if (command === 'proxy') args.push(options.upstream ?? '');
  // No CORS headers: what the test sees is what the server (or the document) says.
  args.push('--port', String(port), '--host', '127.0.0.1', '--cors=false', `--errors=${options.errors ?? false}`, '--verboseLevel', 'warn');
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => { exited = true; resolve(); }));
  const deadline = Date.now() + waitBudget;
  while (!(await canConnect(port))) {
    if (exited) throw new Error(`prism ${command} exited before listening:\n${output}`);
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`prism ${command} did not listen within ${waitBudget / 1000} s:\n${output}`); }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async close() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------
// Plumbing for the proxy in front of a test server.

const upstreamHeader = 'x-ramp-upstream';
const traceHeader = 'x-ramp-trace';
const markerHeader = 'x-ramp-upstream-status';
const hopByHop = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length'];

interface Stored { status: number; headers: IncomingHttpHeaders; body: string; at: number }

function readBody(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });
}

interface Exchange { status: number; headers: IncomingHttpHeaders; body: Buffer }

function send(url: string, method: string, headers: Record<string, string | string[]>, body: Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers: { ...headers, 'content-length': String(body.length) }, agent: false }, async (response) => {
      try {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: await readBody(response) });
      } catch (error) { reject(error); }
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function forwardable(headers: IncomingHttpHeaders, drop: string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.includes(name) || drop.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server) {
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

/**
 * Prism's upstream: forwards each request to the server named in `x-ramp-upstream`, marks
 * the answer with `x-ramp-upstream-status`, and keeps it for 60 s under `x-ramp-trace`
 * (`GET /__ramp_trace/<id>` returns it once), so the tap can recover an answer Prism replaced.
 */
export async function startUpstreamRouter(): Promise<Running> {
  const answers = new Map<string, Stored>();
  const server = createServer(async (req, res) => {
    try {
      const now = Date.now();
      for (const [id, stored] of answers) if (now - stored.at > 60_000) answers.delete(id);
      const traced = /^\/__ramp_trace\/([\w-]+)$/.exec(req.url ?? '');
      if (traced) {
        const stored = answers.get(traced[1]!);
        answers.delete(traced[1]!);
        res.writeHead(stored ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(stored ?? null));
        return;
      }
      const upstream = req.headers[upstreamHeader];
      if (typeof upstream !== 'string') {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`no ${upstreamHeader} header`);
        return;
      }
      const body = await readBody(req);
      const answer = await send(upstream + (req.url ?? '/'), req.method ?? 'GET', forwardable(req.headers, [upstreamHeader, traceHeader]), body);
      const trace = req.headers[traceHeader];
      if (typeof trace === 'string') answers.set(trace, { status: answer.status, headers: answer.headers, body: answer.body.toString('base64'), at: now });
      res.writeHead(answer.status, { ...forwardable(answer.headers), [markerHeader]: String(answer.status) }).end(answer.body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`router: ${(error as Error).message}`);
    }
  });
  const url = await listen(server);
  return { url, close: closer(server) };
}

// ---------------------------------------------------------------------------------------
// Operations of the contract, for naming what a request exercised.

export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  /** Documented response statuses (`200`, `404`, `default`). */
  statuses: string[];
}

let operationsCache: ContractOperation[] | undefined;

/** Every path operation of the joined document (webhooks are the server's calls, not the partner's). */
export function contractOperations(): ContractOperation[] {
  if (operationsCache) return operationsCache;
  const document = parse(readFileSync(rampDocument, 'utf8'));
  const found: ContractOperation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']) {
      const operation = item[method];
      if (operation) found.push({ operationId: operation.operationId, method: method.toUpperCase(), path, statuses: Object.keys(operation.responses ?? {}) });
    }
  }
  return (operationsCache = found);
}

/** The operation a request addresses; literal segments win over parameters (`/ramp/order/fiat_received`). */
export function matchOperation(method: string, pathname: string): ContractOperation | undefined {
  const segments = pathname.split('/');
  let best: { operation: ContractOperation; literals: number } | undefined;
  for (const operation of contractOperations()) {
    if (operation.method !== method.toUpperCase()) continue;
    const template = operation.path.split('/');
    if (template.length !== segments.length) continue;
    let literals = 0;
    const matches = template.every((part, i) => {
      if (/^\{[^}]+\}$/.test(part)) return segments[i] !== '';
      literals++;
      return part === decodeURIComponent(segments[i]!);
    });
    if (matches && (!best || literals > best.literals)) best = { operation, literals };
  }
  return best?.operation;
}

// ---------------------------------------------------------------------------------------

export interface Violation { location: string[]; severity: string; code?: string | number; message: string }

/** One request of a test, as the report sees it. */
export interface TapRecord {
  method: string;
  path: string;
  operationId: string | null;
  /** The status the test received (the server's). */
  status: number;
  /** True when Prism forwarded the request and relayed the server's answer. */
  proxied: boolean;
  violations: Violation[];
  /** Why the exchange was not proxied, or anything odd about it. */
  note?: string;
  test?: string;
}

function parseViolations(header: string | string[] | undefined): Violation[] {
  if (typeof header !== 'string' || header === '') return [];
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    // Prism truncates a long list ("Too many violations! [...").
    return [{ location: ['response'], severity: 'Error', message: header.slice(0, 500) }];
  }
}

function prismSaid(answer: Exchange) {
  return `Prism answered ${answer.status} itself: ${answer.body.toString('utf8').slice(0, 300)}`;
}

function isJson(headers: IncomingHttpHeaders) {
  return /^application\/([\w.+-]*\+)?json\b/i.test(String(headers['content-type'] ?? ''));
}

/**
 * The address a test talks to: forwards through Prism (with the router as its upstream) to
 * `app`, records each exchange, and answers with the server's response.
 */
export async function startContractTap(options: { app: string; prism: string; router: string; report?: string; currentTest?: () => string | undefined }): Promise<Running & { records: TapRecord[] }> {
  const records: TapRecord[] = [];
  const record = (entry: TapRecord) => {
    const test = options.currentTest?.();
    const full = test ? { ...entry, test } : entry;
    records.push(full);
    if (options.report) appendFileSync(options.report, `${JSON.stringify(full)}\n`);
  };
  const server = createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const pathname = new URL(target, 'http://tap').pathname;
    const operation = matchOperation(method, pathname);
    const base = { method, path: pathname, operationId: operation?.operationId ?? null };
    const reply = (answer: Exchange) => {
      const headers = forwardable(answer.headers, [markerHeader, 'sl-violations']);
      // The body is whole, so the server's Content-Length (if it sent one) still holds.
      if (answer.headers['content-length'] !== undefined) headers['content-length'] = answer.headers['content-length'];
      res.writeHead(answer.status, headers).end(answer.body);
    };
    try {
      let body = await readBody(req);
      const direct = () => send(options.app + target, method, forwardable(req.headers), body);
      if (body.length > 0 && isJson(req.headers)) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          const answer = await direct();
          record({ ...base, status: answer.status, proxied: false, violations: [], note: 'body is not JSON: Prism cannot forward it' });
          return reply(answer);
        }
        // Prism re-serializes a JSON body; sending it in that form keeps Content-Length true.
        body = Buffer.from(JSON.stringify(parsed));
      }
      const trace = randomUUID();
      const headers = { ...forwardable(req.headers), [upstreamHeader]: options.app, [traceHeader]: trace };
      const judged = await send(options.prism + target, method, headers, body);
      const violations = parseViolations(judged.headers['sl-violations']);
      // The test gets the server's own bytes (Prism re-serializes what it relays); Prism's
      // answer only says whether the exchange keeps to the documents.
      const lookup = await send(`${options.router}/__ramp_trace/${trace}`, 'GET', {}, Buffer.alloc(0));
      const stored = lookup.status === 200 ? (JSON.parse(lookup.body.toString()) as Stored) : undefined;
      if (stored) {
        const original = { status: stored.status, headers: stored.headers, body: Buffer.from(stored.body, 'base64') };
        if (judged.headers[markerHeader] !== undefined) record({ ...base, status: stored.status, proxied: true, violations });
        else if (stored.status === 501) record({ ...base, status: 501, proxied: false, violations, note: 'the server answered 501 (Prism re-mocks it)' });
        else record({ ...base, status: stored.status, proxied: false, violations, note: `Prism did not relay the server's ${stored.status}: ${prismSaid(judged)}` });
        return reply(original);
      }
      const original = await direct();
      record({ ...base, status: original.status, proxied: false, violations, note: `not forwarded by Prism: ${prismSaid(judged)}` });
      return reply(original);
    } catch (error) {
      record({ ...base, status: 502, proxied: false, violations: [], note: `tap: ${(error as Error).message}` });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`contract tap: ${(error as Error).message}`);
    }
  });
  const url = await listen(server);
  return { url, records, close: closer(server) };
}
