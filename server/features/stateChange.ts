/**
 * The one way the sandbox changes the state of an object (an order of either generation, a
 * swap, a payment account, a verification, a v1 bank account): lock → decide → write →
 * record the events, in one transaction. Use cases, simulators and the sandbox clock's
 * timers (features/clock/timers.ts with each feature's jobs.ts) all go through it, so:
 *
 * - the object is read under its row lock (its repository's `findForUpdate`; SQLite
 *   serializes writers), so two requests, two processes, a job and an advance racing for
 *   one object apply their changes one after the other, each deciding on what the other
 *   wrote;
 * - the decision (the feature's state machine, shared/machine.ts, and its rules) comes
 *   before any write, so a refusal (a thrown Problem) rolls back and changes nothing;
 * - the events are recorded by the outbox (webhooks/outbox.ts) in the same transaction as
 *   the write, so a change is never seen without its event nor an event without its change;
 *   their `occurredAt` is the instant the change was made on the partner's clock, their
 *   deliveries due on real time (EventTimes).
 *
 * What differs per object is given by its feature: how to lock it, how to decide, what to
 * write and which events the write causes.
 */
import type { Services } from '../services.ts';
import type { Tx } from '../storage/database.ts';
import { recordEvent, type EventOrganization, type V1Event, type V2Event } from './webhooks/outbox.ts';

/** What a change needs: storage, the partner's clock (the change's instant) and real time (deliveries). */
export type ChangeDeps = Pick<Services, 'storage' | 'clock' | 'realClock'>;

/** An event a write causes: whom it is about, and `at` when it happened after the change's instant. */
export type ChangeEvent = (V2Event | V1Event) & { organization: EventOrganization; at?: Date };

export interface Written<Row> {
  /** The object as it is after the write. */
  row: Row;
  /** The events the write causes, recorded in this order. */
  events: ChangeEvent[];
}

export interface StateChange<Row, Change> {
  /**
   * The object, read under its row lock; throws its not-found problem, or (a timer, whose
   * object may be gone) answers undefined as its Row, which nothing is written to.
   */
  lock(tx: Tx): Promise<Row>;
  /**
   * The decision on the locked object at `now` (the partner's clock): the change to make,
   * undefined when there is nothing to do (nothing written, no event), or a thrown refusal.
   */
  decide(row: Row, now: Date, tx: Tx): Change | undefined | Promise<Change | undefined>;
  /** Writes the change and names the events it causes. */
  write(tx: Tx, row: NonNullable<Row>, change: Change, now: Date): Promise<Written<Row>>;
}

/**
 * Applies one change in a transaction of its own; answers the object after it (or as it was,
 * when there was nothing to do). The instant of the change is read once the lock is held, so
 * a change waiting for another's lock is stamped after it.
 */
export function changeState<Row, Change>(deps: ChangeDeps, change: StateChange<Row, Change>): Promise<Row> {
  return deps.storage.db.transaction().execute(async (tx) => {
    const row = await change.lock(tx);
    const now = deps.clock.now();
    const decided = await change.decide(row, now, tx);
    if (decided === undefined || row === undefined || row === null) return row;
    const written = await change.write(tx, row, decided, now);
    for (const { at, ...event } of written.events) {
      await recordEvent(tx, { ...event, occurredAt: at ?? now, deliverFrom: deps.realClock.now() });
    }
    return written.row;
  });
}
