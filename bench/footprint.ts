/** The footprint section: cold starts and idle memory of our server, and the time `npm run generate` takes. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cpuMs, median, root, rssMb, sleep } from './lib.ts';
import { log, newIdentity, type Session } from './session.ts';
import { bundleServer } from './targets.ts';

export async function footprint(session: Session) {
  const { results, work } = session;
  log('footprint: cold starts on an empty database');
  const coldStarts: number[] = [];
  const coldStartCpu: number[] = [];
  let idleRssMb: number | undefined;
  for (let i = 0; i < 3; i++) {
    const dataDir = join(work, `cold-${i}`);
    const server = await session.ours({ engine: 'sqlite', dataDir }, newIdentity());
    coldStarts.push(server.readyMs);
    coldStartCpu.push(cpuMs(server.process.pid) ?? NaN);
    if (i === 2) {
      await sleep(3000);
      idleRssMb = rssMb(server.process.pid);
    }
    await session.stop(server);
  }
  results.footprint = { ...results.footprint, coldStartMs: median(coldStarts), coldStartsMs: coldStarts, coldStartCpuMs: median(coldStartCpu), idleRssMb };
  results.notes.push(`Cold start runs dist/server.js; npm start first bundles it (scripts/build-server.mjs), which took ${Math.round(bundleServer())} ms in this run.`);
}

export function generateTime(session: Session) {
  const { results } = session;
  log('footprint: npm run generate (timed as check:generated, which builds the same files without writing generated/)');
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'generate.ts'), '--check'], { cwd: root, stdio: 'ignore', timeout: 600_000 });
  const seconds = (performance.now() - started) / 1000;
  results.footprint = { ...results.footprint, generateSeconds: seconds, generateUpToDate: run.status === 0 };
}
