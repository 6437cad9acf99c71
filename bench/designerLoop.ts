/**
 * The designer's loop as a benchmark (issue 33, item 6): `npm run docs` serves a copy of the
 * contract, a description in one file of it is changed as an editor saves (a new file renamed
 * over the old one), and the time runs until the served page of its surface shows the new
 * text. Target: at most 2 s, the anchor being `redocly preview`. Before it, a save cost
 * `npm run generate` (the footprint section's figure) and a manual reload.
 *
 * The time is what an open page sees: the save, the page's `reload` event, then the page
 * fetched again holding the new text. Redoc then renders it in the browser, which is not
 * counted here (the built pages of generated/ hydrate the same way). Each save waits for the
 * previous one's lint to end, as saves seconds apart would.
 */
import { cpSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesignerLoopResult } from './designerLoopReport.ts';
import { median, root, sleep, startChild, waitUntilAnswering } from './lib.ts';
import { freePort } from '../test/support/ports.ts';
import { log, type Session } from './session.ts';

/** The file changed: one operation of v2, the largest surface. */
const edited = join('openapi', 'paths', 'v2', 'health.yaml');
const anchor = '  description: |\n';

export async function designerLoop(session: Session) {
  const { options, results, work } = session;
  const contract = join(work, 'designer-contract');
  cpSync(join(root, 'openapi'), join(contract, 'openapi'), { recursive: true });
  cpSync(join(root, 'redocly.yaml'), join(contract, 'redocly.yaml'));
  const file = join(contract, edited);
  const original = readFileSync(file, 'utf8');
  if (!original.includes(anchor)) throw new Error(`designer loop: ${edited} has no operation description to change`);
  const port = await freePort();
  const started = performance.now();
  const docs = await session.track(Promise.resolve(startChild('npm run docs', process.execPath, ['--import', 'tsx', join(root, 'scripts', 'serve-docs.ts'), '--port', String(port), '--contract', contract], { url: `http://127.0.0.1:${port}` })));
  try {
    const startMs = await waitUntilAnswering(docs, '/v2.html', { since: started, status: 200, timeoutMs: 120_000 });
    const saves = Math.max(5, options.rounds);
    log(`designer loop: npm run docs answered after ${Math.round(startMs)} ms; ${saves} saves of ${edited}`);
    const events = await pageEvents(docs.url);
    const rounds: number[] = [];
    try {
      for (let round = 0; round < saves; round++) {
        const marker = `Designer-loop mark ${round} ${Date.now()}.`;
        const saved = performance.now();
        writeFileSync(`${file}.saving`, original.replace(anchor, `${anchor}    ${marker}\n\n`));
        renameSync(`${file}.saving`, file);
        for (;;) {
          const event = await events.next(saved + 60_000);
          if (event === undefined) throw new Error(`designer loop: the page did not show the change within 60 s:\n${docs.output()}`);
          if (event.name === 'reload' && (await (await fetch(`${docs.url}/v2.html`)).text()).includes(marker)) break;
        }
        rounds.push(performance.now() - saved);
        log(`designer loop: save ${round + 1} visible after ${Math.round(rounds.at(-1)!)} ms`);
        while ((await events.next(performance.now() + 60_000))?.name !== 'lint');
      }
    } finally {
      await events.close();
    }
    const result: DesignerLoopResult = { file: edited, startMs, visibleMs: median(rounds)!, rounds };
    results.designerLoop = result;
  } finally {
    await session.stop(docs);
  }
}

/** The events an open page receives from `npm run docs` (Server-Sent Events), one at a time. */
async function pageEvents(url: string) {
  const reader = (await fetch(`${url}/_docs/events`)).body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let reading: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  return {
    /** The next event, or undefined when none came by `until` (a performance.now() time). */
    async next(until: number): Promise<{ name: string; data: string } | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          if (name) return { name, data: /^data: (.*)$/m.exec(block)?.[1] ?? '' };
          continue;
        }
        reading ??= reader.read();
        const chunk = await Promise.race([reading, sleep(Math.max(0, until - performance.now())).then(() => undefined)]);
        if (chunk === undefined) return undefined;
        reading = undefined;
        if (chunk.done) return undefined;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}
