/**
 * Puts Prism's validating proxy in front of a test server (startTestServer does this when
 * RAMP_TEST_PRISM=1). Under `npm run test:prism` one Prism and one router serve the whole
 * run (RAMP_TEST_PRISM_URL, RAMP_TEST_PRISM_ROUTER) and every exchange is appended to
 * RAMP_TEST_PRISM_REPORT; run alone, each server gets its own Prism.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { startContractTap, startPrism, startUpstreamRouter, type Running } from './prism.ts';

export async function prismInFront(app: string): Promise<Running> {
  const owned: Running[] = [];
  let prism = process.env.RAMP_TEST_PRISM_URL;
  let router = process.env.RAMP_TEST_PRISM_ROUTER;
  if (!prism || !router) {
    const started = await startUpstreamRouter();
    owned.push(started);
    const proxy = await startPrism('proxy', { upstream: started.url });
    owned.push(proxy);
    router = started.url;
    prism = proxy.url;
  }
  const reportDir = process.env.RAMP_TEST_PRISM_REPORT;
  const tap = await startContractTap({
    app,
    prism,
    router,
    ...(reportDir ? { report: join(reportDir, `${process.pid}.jsonl`) } : {}),
    currentTest: () => {
      const state = expect.getState();
      const file = state.testPath ? state.testPath.replace(/^.*\/test\//, 'test/') : undefined;
      return [file, state.currentTestName].filter(Boolean).join(' > ') || undefined;
    },
  });
  return {
    url: tap.url,
    async close() {
      await tap.close();
      for (const running of owned.reverse()) await running.close();
    },
  };
}
