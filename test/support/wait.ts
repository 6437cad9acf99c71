/**
 * How long a test waits for something it expects: one generous budget for every wait on an
 * event (a delivery, a server start, a page element), never a race against a short timer.
 * CI may share the machine's two cores with other work, and a wait that holds on a quiet
 * machine must hold there too; a slower machine scales it with RAMP_TEST_WAIT_SCALE.
 * A wait ends as soon as its event happens, so a large budget costs nothing when all is well.
 */
const scale = Number(process.env.RAMP_TEST_WAIT_SCALE ?? '1');
if (!(scale > 0)) throw new Error(`RAMP_TEST_WAIT_SCALE must be a positive number, not ${process.env.RAMP_TEST_WAIT_SCALE}`);

/** The budget of one wait for an expected event, in milliseconds. */
export const waitBudget = Math.round(90_000 * scale);

/** A test's own budget: room for a few waits and the work between them. */
export const testBudget = 3 * waitBudget;

/** Polls until `check` returns a truthy value, or throws after `ms` (the wait budget by default). */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = waitBudget, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
