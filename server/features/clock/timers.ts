/**
 * The one mechanism that applies the sandbox's timers: the background jobs for what is due
 * "now" on each running clock, and `POST /sandbox/clock/advance` for what is due up to an
 * instant on one partner's clock.
 *
 * A timer (services.ts `Timer`) is declared by its object's feature, in its jobs.ts, and
 * gathered by server/jobs.ts into `Services.timers`: a due query over its objects' due-at
 * column (restricted to the partners a scope names, storage/clockScope.ts `followsClock`)
 * and the domain's function that applies one due object: it locks the object, checks again
 * that it is still due at the clock it is given and applies the change with its event, in
 * one transaction. So a job, an advance and a second process never apply one change twice,
 * and the same code path runs either way.
 *
 * No partner can hold up another. Each change is a transaction of its own, and after each
 * the event loop takes its turn (`setImmediate`) before the next: the embedded SQLite driver
 * is synchronous, so a loop of awaited queries never lets a request in until it ends, and one
 * partner's advance over a thousand deadlines held every other request for as long. And a
 * change or a clock that fails is logged and passed over by the jobs, which go on with the
 * other changes and partners instead of stopping everyone's timers at the first error.
 *
 * Timers that change nothing by themselves are not here: an expired quote or claim is
 * refused or replaced when used, the v1 onboarding URL when redeemed; they follow the
 * partner's clock through Services.clock.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DueItem, Services, Timer } from '../../services.ts';
import type { DueScope } from '../../storage/clockScope.ts';
import type { Db } from '../../storage/database.ts';
import { clocksRepository, fixedClock, partnerClock } from './repository.ts';

/** How many due objects one job run takes per clock, and an advance reads at once; the next read takes the rest. */
const batch = 100;

/** Applies one due change, then lets other requests and jobs have their turn (see above). */
async function applyInTurn(timer: Timer, services: Services, item: DueItem): Promise<boolean> {
  try {
    return await timer.apply(services, item);
  } finally {
    await nextTurn();
  }
}

/**
 * A job run: what falls due now, for every partner on real time and for each partner whose
 * running clock has an offset (at real time plus that offset); never for a frozen clock.
 * A change that fails, or a partner's clock that does, is logged and passed over.
 */
export async function applyDueNow(services: Services, timer: Timer): Promise<void> {
  const { db } = services.storage;
  const windows: { scope: DueScope; services: Services }[] = [{ scope: 'onRealTime', services }];
  for (const { partnerId, state } of await clocksRepository(db).runningWithOffset()) {
    windows.push({ scope: { partnerId }, services: { ...services, clock: partnerClock(services.realClock, state) } });
  }
  const failed = (error: unknown, scope: DueScope, item?: DueItem) => {
    // A database outage is no one partner's failure: it ends the run (storage tells it once) and the next run starts over.
    if (services.storage.health.failed(error)) throw error;
    services.logger.error({ err: error, job: timer.job, ...(scope === 'onRealTime' ? {} : scope), ...(item ? { item } : {}) }, 'sandbox timer failed; the others go on');
  };
  for (const window of windows) {
    try {
      const due = await timer.due(db, window.scope, window.services.clock.now().toISOString(), batch);
      for (const item of due) await applyInTurn(timer, window.services, item).catch((error: unknown) => failed(error, window.scope, item));
    } catch (error) {
      failed(error, window.scope);
    }
  }
}

/** A due change and the timer that applies it. */
export interface Due {
  timer: Timer;
  item: DueItem;
}

const byDueAt = (a: Due, b: Due) => (a.item.dueAt < b.item.dueAt ? -1 : a.item.dueAt > b.item.dueAt ? 1 : 0);

/**
 * The partner's changes due by `until` in the order they fall due (at one instant, in the
 * order of `timers`), read `limit` per timer: past the last one read of a timer that has
 * more, one of its unread changes could come next, so the answer ends there.
 */
export async function dueInOrder(timers: readonly Timer[], db: Db, partnerId: string, until: string, limit: number): Promise<Due[]> {
  const read: Due[][] = [];
  for (const timer of timers) read.push((await timer.due(db, { partnerId }, until, limit)).map((item) => ({ timer, item })));
  // Stable: ties keep the order of the timers, then each timer's own.
  const merged = read.flat().sort(byDueAt);
  const lasts = read.filter((items) => items.length === limit).map((items) => merged.indexOf(items.at(-1)!));
  return merged.slice(0, lasts.length > 0 ? Math.min(...lasts) + 1 : merged.length);
}

/**
 * An advance: applies every change of the partner due by `until`, earliest first, each with
 * a clock standing at its due instant (its object's updatedAt and its event's occurredAt),
 * and tells `applied` of each it made. A change that scheduled another would have it found
 * by the next read, after the rest of this one: no timer's change does (a v1 deposit, which
 * schedules its tokens, is a request). Concurrent advances and the jobs need no lock between
 * them: each reads the changes still due, and applying one locks and re-checks its object,
 * so each change is applied once, by one of them, and in time order (none applies a change
 * before every earlier one is done).
 *
 * Why a transaction per change and not per batch: on PostgreSQL a transaction of several
 * changes would hold the partner's event counter while it locks the next object, against the
 * lock order of storage/positions.ts (events last), and deadlock with a simulator moving that
 * object; on SQLite it would hold the only connection for the whole batch.
 */
export async function applyDueUntil(services: Services, partnerId: string, until: string, applied: (item: DueItem) => void): Promise<void> {
  // A change found due again after it was applied (or found unchanged) would loop forever: a defect, not a request error.
  let previous = new Set<string>();
  for (;;) {
    const due = await dueInOrder(services.timers, services.storage.db, partnerId, until, batch);
    if (due.length === 0) return;
    const read = new Set<string>();
    for (const { timer, item } of due) {
      const key = `${item.kind}:${item.id}:${item.dueAt}`;
      if (previous.has(key)) throw new Error(`sandbox clock: ${key} is still due after it was applied`);
      read.add(key);
      if (await applyInTurn(timer, { ...services, clock: fixedClock(new Date(item.dueAt)) }, item)) applied(item);
    }
    previous = read;
  }
}
