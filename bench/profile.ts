/**
 * BENCH_PROFILE: what a V8 CPU profile (`node --cpu-prof`) of our server says about one
 * measured run, as text for bench/results.md: the frames with the most self time, and the
 * same time by where the code comes from (a package, our server/ folder, Node itself, the
 * garbage collector), in µs per request.
 *
 * Only the samples taken inside the measured run count (not the start, the warm-up or the
 * stop): V8 stamps samples with the monotonic clock `process.hrtime` reads, so the bench
 * passes the run's window in the same µs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface FrameTime {
  frame: string;
  /** Where the frame's code comes from: a package name, `server/<folder>`, `node`, `(gc)`, … */
  origin: string;
  usPerRequest: number;
  share: number;
}

export interface ProfileSummary {
  /** CPU µs per request the samples account for (idle excluded). */
  usPerRequest: number;
  top: FrameTime[];
  byOrigin: { origin: string; usPerRequest: number; share: number }[];
}

/** The one profile a stopped server wrote into `dir`. */
export function profileIn(dir: string): string | undefined {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return file && join(dir, file);
}

const maps = new Map<string, SourceMap | null>();
function sourceMapOf(url: string): SourceMap | null {
  if (!maps.has(url)) {
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      maps.set(url, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
    } catch {
      maps.set(url, null);
    }
  }
  return maps.get(url)!;
}

/** `file:…/node_modules/express-openapi-validator/dist/x.js` → the package; dist/server.js → its source. */
function locate(frame: ProfileNode['callFrame']): { origin: string; where: string } {
  const { url, lineNumber, columnNumber, functionName } = frame;
  if (!url) return { origin: functionName.startsWith('(') ? functionName : 'native', where: '' };
  if (url.startsWith('node:')) return { origin: 'node', where: url.slice(5) };
  let path = url.startsWith('file:') ? fileURLToPath(url) : url;
  let line = lineNumber + 1;
  if (path.endsWith('/dist/server.js')) {
    const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
    if (entry?.originalSource) {
      path = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : entry.originalSource;
      line = (entry.originalLine ?? 0) + 1;
    }
  }
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return { origin: name, where: `${rest.slice(name.split('/').length).join('/')}:${line}` };
  }
  const server = path.lastIndexOf('/server/');
  if (server >= 0) {
    const rest = path.slice(server + 1).split('/');
    return { origin: rest.length > 2 ? `${rest[0]}/${rest[1]}` : rest[0]!, where: `${rest.slice(1).join('/')}:${line}` };
  }
  return { origin: 'other', where: `${path}:${line}` };
}

/** Self time per frame over the samples in [fromUs, toUs] (profile µs), per request. */
export function summarizeProfile(file: string, window: { fromUs: number; toUs: number }, requests: number, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t < window.fromUs || t > window.toUs) continue;
    // A sample stands for the time since the one before it.
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + delta);
  }
  const frames = new Map<string, { origin: string; us: number }>();
  const origins = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { callFrame } = nodes.get(id)!;
    if (callFrame.functionName === '(idle)') continue;
    const { origin, where } = locate(callFrame);
    const name = `${callFrame.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    const key = `${origin}\u0000${name}`;
    frames.set(key, { origin, us: (frames.get(key)?.us ?? 0) + us });
    origins.set(origin, (origins.get(origin) ?? 0) + us);
    total += us;
  }
  const perRequest = (us: number) => us / Math.max(1, requests);
  return {
    usPerRequest: perRequest(total),
    top: [...frames.entries()]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([key, v]) => ({ frame: key.split('\u0000')[1]!, origin: v.origin, usPerRequest: perRequest(v.us), share: v.us / total })),
    byOrigin: [...origins.entries()].sort((a, b) => b[1] - a[1]).map(([origin, us]) => ({ origin, usPerRequest: perRequest(us), share: us / total })),
  };
}

/** The monotonic clock V8 stamps profile samples with, in µs. */
export const profileClockUs = () => Number(process.hrtime.bigint() / 1000n);
