/**
 * Sandbox clocks: their storage. The condition every due query of the sandbox's timers
 * shares is storage/clockScope.ts `followsClock`.
 *
 * A partner's clock is a row of `sandbox_clocks` (migration 140): frozen at an instant, or
 * running at real time plus an offset. No row is the clock every partner starts with:
 * running, no offset. Every organization carries the partner at the top of its parent chain
 * (`organizations.top_id`), so the clock of any object is found through its organization
 * with one indexed read.
 *
 * The timers themselves stay with their objects, as due-at columns (`orders.settle_at`,
 * `orders.funding_deadline`, `payment_accounts.verify_at`, `v1_orders.due_at`) written on
 * the partner's clock. What is due "now" is therefore per partner: the background jobs ask
 * once for every partner on real time (no offset, not frozen) and once per partner whose
 * running clock has an offset; frozen partners are never asked (clock/timers.ts). That is
 * one query per such partner and timer per job run: fine for a sandbox, where few partners
 * move a running clock (freezing first is the documented way to test); a sandbox hosting
 * many would keep a real-time due instant beside each timer instead.
 */
import type { Clock } from '../../services.ts';
import type { Db, Engine, Tx } from '../../storage/database.ts';
import { followsClock } from '../../storage/clockScope.ts';
import { countOf } from '../../storage/positions.ts';

export interface ClockState {
  /** The instant it stands at while frozen; null while it runs. */
  frozenAt: string | null;
  /** While running: its time minus real time, in milliseconds. */
  offsetMs: number;
}

/** The clock every partner starts with: real time. */
export const onRealTime: ClockState = { frozenAt: null, offsetMs: 0 };

export const isOnRealTime = (state: ClockState) => state.frozenAt === null && state.offsetMs === 0;

/** A partner's time, by its clock's state and real time. */
export function timeOf(state: ClockState, real: Date): Date {
  return state.frozenAt !== null ? new Date(state.frozenAt) : new Date(real.getTime() + state.offsetMs);
}

/** The Clock a partner's requests and timers read (Services.clock). */
export function partnerClock(real: Clock, state: ClockState): Clock {
  if (isOnRealTime(state)) return real;
  return { now: () => timeOf(state, real.now()) };
}

/** A clock standing at one instant: what a timer applied by an advance reads (its due instant). */
export const fixedClock = (at: Date): Clock => ({ now: () => new Date(at.getTime()) });

const stateOf = (row: { frozen_at: string | null; offset_ms: number | string } | undefined): ClockState =>
  row ? { frozenAt: row.frozen_at, offsetMs: Number(row.offset_ms) } : onRealTime;

export function clocksRepository(db: Db | Tx, engine: Engine = 'sqlite') {
  const expiring = (partnerId: string, after: string, until: string) =>
    db
      .selectFrom('quotes')
      .where(followsClock('quotes.organization_id', { partnerId }))
      .where('expires_at', '>', after)
      .where('expires_at', '<=', until)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('orders').select('orders.id').whereRef('orders.quote_id', '=', 'quotes.id'))));
  return {
    async find(partnerId: string): Promise<ClockState> {
      return stateOf(await db.selectFrom('sandbox_clocks').select(['frozen_at', 'offset_ms']).where('partner_id', '=', partnerId).executeTakeFirst());
    },

    /**
     * Inside a transaction: the partner's clock, its row made to exist and locked
     * (PostgreSQL; SQLite runs one transaction at a time), so changes of one clock are
     * serialized and none is lost.
     */
    async lock(partnerId: string, now: string): Promise<ClockState> {
      await db.insertInto('sandbox_clocks').values({ partner_id: partnerId, frozen_at: null, offset_ms: 0, updated_at: now }).onConflict((oc) => oc.column('partner_id').doNothing()).execute();
      let query = db.selectFrom('sandbox_clocks').select(['frozen_at', 'offset_ms']).where('partner_id', '=', partnerId);
      if (engine === 'postgres') query = query.forUpdate();
      return stateOf(await query.executeTakeFirst());
    },

    async save(partnerId: string, state: ClockState, now: string) {
      await db.updateTable('sandbox_clocks').set({ frozen_at: state.frozenAt, offset_ms: state.offsetMs, updated_at: now }).where('partner_id', '=', partnerId).execute();
    },

    /**
     * The clock an organization follows (its top partner's), by one indexed join: for what
     * is done for a partner without its key (a sign-in, a redeemed onboarding URL).
     */
    async ofOrganization(organizationId: string): Promise<ClockState> {
      return stateOf(
        await db
          .selectFrom('organizations')
          .innerJoin('sandbox_clocks', 'sandbox_clocks.partner_id', 'organizations.top_id')
          .select(['sandbox_clocks.frozen_at', 'sandbox_clocks.offset_ms'])
          .where('organizations.id', '=', organizationId)
          .executeTakeFirst(),
      );
    },

    /** The partners whose clock runs with an offset: each has its own "now" for the jobs. */
    async runningWithOffset(): Promise<{ partnerId: string; state: ClockState }[]> {
      const rows = await db.selectFrom('sandbox_clocks').select(['partner_id', 'frozen_at', 'offset_ms']).where('frozen_at', 'is', null).where('offset_ms', '<>', 0).execute();
      return rows.map((row) => ({ partnerId: row.partner_id, state: stateOf(row) }));
    },

    /** The first `limit` quotes of the partner not ordered whose `expiresAt` falls in (after, until]: what an advance lets expire. */
    quotesExpiring(partnerId: string, after: string, until: string, limit: number) {
      return expiring(partnerId, after, until).select(['id', 'organization_id', 'expires_at']).orderBy('expires_at').limit(limit).execute();
    },

    async countQuotesExpiring(partnerId: string, after: string, until: string): Promise<number> {
      const row = await expiring(partnerId, after, until).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * The partner's event feed (listSandboxEvents) as far as it is recorded: its cursor, which
     * is the count of its events, as their positions are dense (storage/positions.ts).
     */
    eventsCursor: (partnerId: string) => countOf(db, 'events', partnerId),
  };
}
