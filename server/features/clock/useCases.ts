/**
 * The sandbox clock of a partner (`GET|PUT /sandbox/clock`, `POST /sandbox/clock/advance`):
 * read it, freeze it or let it run, advance it. See "Sandbox clock" in the v2 description
 * for what follows it and what stays on real time, and repository.ts for how it is stored.
 *
 * Advancing applies every timer of the partner due up to the target instant, earliest
 * first, each through the same function the background job uses (timers.ts `applyDueUntil`)
 * with a clock standing at its due instant, so its object's updatedAt and its event's
 * occurredAt are that instant; each change is a transaction of its own, and other requests
 * are served between two changes. Concurrent advances need no lock between them: each
 * applies the changes still due in time order, and applying one locks and re-checks the
 * object, so each change is applied once, by one call, in time order; the clock is then
 * moved in a transaction that locks its row and never moves it back. Until then the clock
 * reads the instant it stood at, and each change shows as soon as it is applied: what a
 * partner sees during a long advance, or of two advances that overlap (each answer lists
 * what that call applied; together they list every change once).
 *
 * The answer counts every change but lists the first `maxListed` only: the events of the
 * others are in the event feed after `eventsAfter`, so the answer's size does not grow with
 * the changes a year of timers makes.
 */
import type { components } from '../../../generated/types/ramp.ts';
import { everyValueOf } from '../../shared/contractEnums.ts';
import type { Caller } from '../organizations/scope.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import { parseDateTime } from '../../shared/dateTime.ts';
import type { Services } from '../../services.ts';
import { topOf } from '../organizations/repository.ts';
import { clocksRepository, isOnRealTime, partnerClock, timeOf, type ClockState } from './repository.ts';
import type { DueItem, TransitionKind } from '../../services.ts';
import { applyDueUntil, dueInOrder, type Due } from './timers.ts';
import { changeState } from '../stateChange.ts';

type Schemas = components['schemas'];
export type SandboxClock = Schemas['SandboxClock'];
export type SandboxClockAdvance = Schemas['SandboxClockAdvance'];
type AdvanceRequest = Schemas['AdvanceSandboxClockRequest'];

/** The farthest one advance moves a clock: a mistyped unit fails loudly instead of applying years of timers. */
export const maxAdvanceDays = 366;
const maxAdvanceMs = maxAdvanceDays * 24 * 3600_000;
const endOfTime = '9999-12-31T23:59:59.999Z';

/**
 * The last instant a clock is advanced to (409 `conflict` past it). The sandbox stores and
 * compares instants as ISO 8601 text, which sorts as time only while the year has four digits
 * (`+010000-01-01…` sorts before `2026-…`, so due timers would never be found), and the
 * contract's date-time has four; this leaves about a thousand years below year 10000 for any
 * timer scheduled from the clock (hours, days in production) and for a clock left running.
 */
export const lastInstant = '9000-01-01T00:00:00.000Z';

/** How many changes an advance's answer lists (SandboxClockAdvance's `transitions`, maxItems); it counts them all. */
export const maxListed = 100;

/** What a request reads and changes at: its partner's clock, when that is not real time (app.ts). */
export function withPartnerClock(services: Services, caller: Caller | undefined): Services {
  const state = caller?.sandboxClock;
  if (!state || isOnRealTime(state)) return services;
  return { ...services, clock: partnerClock(services.realClock, state) };
}

/** The partner whose clock a key's organization follows: the top of its parent chain. */
const partnerOfCaller = (caller: Caller) => topOf(caller.organization);

/** Only the partner's own key moves the clock it shares with all its customers. */
function assertPartnerKey(caller: Caller): string {
  const partnerId = partnerOfCaller(caller);
  if (caller.organization.id !== partnerId) throw new Problem('forbidden', `The sandbox clock belongs to partner ${partnerId}; only its own key moves it.`);
  return partnerId;
}

/** The earliest change of the partner due by `until`, over every timer (ties: in the order of `timers`). */
async function nextDue(services: Services, partnerId: string, until: string): Promise<Due | undefined> {
  return (await dueInOrder(services.timers, services.storage.db, partnerId, until, 1))[0];
}

async function present(services: Services, partnerId: string, state: ClockState): Promise<SandboxClock> {
  const now = timeOf(state, services.realClock.now()).toISOString();
  const next = await nextDue(services, partnerId, endOfTime);
  // An open quote's expiry is a change an advance applies (quoteExpired) too, though no timer makes it.
  const [quote] = await clocksRepository(services.storage.db).quotesExpiring(partnerId, now, endOfTime, 1);
  const dueAts = [next?.item.dueAt, quote?.expires_at].filter((at): at is string => at !== undefined).sort();
  return { organizationId: partnerId, now, frozen: state.frozenAt !== null, nextDueAt: dueAts[0] ?? null };
}

export async function getSandboxClock(services: Services, caller: Caller): Promise<SandboxClock> {
  return sandboxClockOf(services, partnerOfCaller(caller));
}

/** A partner's clock as the contract shows it (SandboxClock), by the partner's id. */
export async function sandboxClockOf(services: Services, partnerId: string): Promise<SandboxClock> {
  return present(services, partnerId, await clocksRepository(services.storage.db).find(partnerId));
}

/** Freezes the clock at its current instant, or lets it run on from the instant it stands at. */
export async function setSandboxClock(services: Services, caller: Caller, frozen: boolean): Promise<SandboxClock> {
  const partnerId = assertPartnerKey(caller);
  const state = await changeClock(services, partnerId, (current, real) => {
    if ((current.frozenAt !== null) === frozen) return undefined;
    const now = timeOf(current, real);
    return frozen ? { frozenAt: now.toISOString(), offsetMs: 0 } : { frozenAt: null, offsetMs: now.getTime() - real.getTime() };
  });
  return present(services, partnerId, state);
}

/**
 * One change of a partner's clock row (features/stateChange.ts), made on real time: the
 * clock is what the partner's instants are read from, so its own changes cannot be. No event.
 */
function changeClock(services: Services, partnerId: string, decide: (current: ClockState, real: Date) => ClockState | undefined): Promise<ClockState> {
  const { storage } = services;
  return changeState<ClockState, ClockState>({ ...services, clock: services.realClock }, {
    lock: (tx) => clocksRepository(tx, storage.engine).lock(partnerId, services.realClock.now().toISOString()),
    decide,
    async write(tx, _current, next, real) {
      await clocksRepository(tx).save(partnerId, next, real.toISOString());
      return { row: next, events: [] };
    },
  });
}

const durationPattern = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?$/;

/**
 * An ISO 8601 duration of fixed length, in milliseconds, as AdvanceSandboxClockRequest.by
 * allows it (the contract's pattern is this one's grammar; it also lets `P` and `PT`
 * through, which name no unit): undefined when it is not one.
 */
export function durationMs(duration: string): number | undefined {
  const match = durationPattern.exec(duration);
  if (!match || !/\d/.test(duration)) return undefined;
  const [, weeks, days, hours, minutes, seconds] = match.map((part) => (part === undefined ? 0 : Number(part)));
  return Math.round(((((weeks! * 7 + days!) * 24 + hours!) * 60 + minutes!) * 60 + seconds!) * 1000);
}

/** Moves the clock forward and applies everything that falls due on the way, in time order. */
export async function advanceSandboxClock(services: Services, caller: Caller, request: AdvanceRequest): Promise<SandboxClockAdvance> {
  if ((request.by === undefined) === (request.to === undefined)) {
    throw validationError(
      request.by === undefined
        ? [{ pointer: '/by', detail: 'is required unless to is sent; send exactly one of by or to' }]
        : [{ pointer: '/to', detail: 'is not allowed with by; send exactly one of by or to' }],
    );
  }
  const partnerId = assertPartnerKey(caller);
  const { storage } = services;
  const from = timeOf(await clocksRepository(storage.db).find(partnerId), services.realClock.now());
  let target: Date;
  if (request.by !== undefined) {
    const ms = durationMs(request.by);
    if (ms === undefined) throw validationError([{ pointer: '/by', detail: 'names no unit; send an ISO 8601 duration such as PT5M1S' }]);
    if (ms > maxAdvanceMs) throw validationError([{ pointer: '/by', detail: `moves the clock more than ${maxAdvanceDays} days; advance in several calls` }]);
    target = new Date(from.getTime() + ms);
  } else {
    const to = parseDateTime(request.to!);
    if (!to) throw validationError([{ pointer: '/to', detail: 'must match format "date-time"' }]);
    target = to;
    if (target < from) throw new Problem('conflict', `The sandbox clock is at ${from.toISOString()}; it cannot go back to ${target.toISOString()}.`);
    if (target.getTime() - from.getTime() > maxAdvanceMs) throw validationError([{ pointer: '/to', detail: `moves the clock more than ${maxAdvanceDays} days; advance in several calls` }]);
  }
  if (target.getTime() > Date.parse(lastInstant)) {
    throw new Problem('conflict', `The sandbox clock goes no further than ${lastInstant}; it cannot be advanced to ${target.toISOString()}.`);
  }
  const { counts, transitions, eventsAfter } = await applyUntil(services, partnerId, from.toISOString(), target.toISOString());

  const state = await changeClock(services, partnerId, (current, real) => {
    // Never back: a concurrent advance may have gone further.
    const at = new Date(Math.max(timeOf(current, real).getTime(), target.getTime()));
    return current.frozenAt !== null ? { frozenAt: at.toISOString(), offsetMs: 0 } : { frozenAt: null, offsetMs: at.getTime() - real.getTime() };
  });
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return { clock: await present(services, partnerId, state), counts, transitions, unlistedTransitions: total - transitions.length, eventsAfter };
}

/**
 * Applies what falls due in (from, until] and answers what it did: every change counted, the
 * first `maxListed` listed in time order, and the event feed's cursor before the first.
 */
async function applyUntil(services: Services, partnerId: string, from: string, until: string) {
  const repository = clocksRepository(services.storage.db);
  const eventsAfter = await repository.eventsCursor(partnerId);
  const counts = Object.fromEntries(kinds.map((kind) => [kind, 0])) as SandboxClockAdvance['counts'];
  // Applied in time order: the first `maxListed` are the only ones that can be listed.
  const applied: DueItem[] = [];
  await applyDueUntil(services, partnerId, until, (item) => {
    counts[item.kind]++;
    if (applied.length < maxListed) applied.push(item);
  });
  counts.quoteExpired = await repository.countQuotesExpiring(partnerId, from, until);
  const quotes = await repository.quotesExpiring(partnerId, from, until, maxListed);
  const expired = quotes.map((quote): DueItem => ({ kind: 'quoteExpired', id: quote.id, organizationId: quote.organization_id, dueAt: quote.expires_at }));
  // Stable: changes due at one instant keep the order they were applied in, quotes after them.
  const transitions = [...applied, ...expired].sort((a, b) => (a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : 0)).slice(0, maxListed);
  return { counts, transitions, eventsAfter };
}

/** Every kind of SandboxTransitionKind, bound to the contract (tsc refuses one too many or too few). */
const kinds = everyValueOf<TransitionKind>()(['quoteExpired', 'orderFundingExpired', 'orderCompleted', 'paymentAccountReady', 'v1TokensDelivered', 'v1OfframpFinalized']);
