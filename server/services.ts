/**
 * What handlers, use cases and jobs receive: storage, configuration, the contract, the clock,
 * the logger, the price feed and the sandbox's timers; and the shapes of a background job and
 * of a timer, which receive them too.
 */
import type { Logger } from 'pino';
import type { components } from '../generated/types/ramp.ts';
import type { Config } from './config.ts';
import type { Contract } from './shared/contract.ts';
import type { PriceFeed } from './features/prices/feed.ts';
import type { DueScope } from './storage/clockScope.ts';
import type { Db, Storage } from './storage/database.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Services {
  config: Config;
  storage: Storage;
  contract: Contract;
  logger: Logger;
  /**
   * The time of what is read and changed: real time, except in a request of a partner whose
   * sandbox clock is frozen or moved (server/features/clock), where it is that partner's.
   */
  clock: Clock;
  /**
   * Real time, whatever a partner's sandbox clock says: webhook deliveries and their
   * retries, rate limits, sign-in tokens and the JWKS cache follow it.
   */
  realClock: Clock;
  prices: PriceFeed;
  /**
   * Every timer of the sandbox, gathered by server/jobs.ts from the features that declare
   * them: the background jobs apply what is due now, `POST /sandbox/clock/advance` what is
   * due up to an instant (features/clock/timers.ts).
   */
  timers: readonly Timer[];
}

export const isoNow = (services: Pick<Services, 'clock'>) => services.clock.now().toISOString();

/** A background job (server/jobs.ts runs them; each feature declares its own in its jobs.ts). */
export interface Job {
  name: string;
  /**
   * Runs every `intervalMs`; the next run starts only after this one ended. `stopping` aborts
   * when the jobs stop: a run that could go on (a backlog) winds down then.
   */
  run(services: Services, stopping: AbortSignal): Promise<void>;
  /** This job's own interval instead of the common one (undefined: the common one). */
  intervalMs?(services: Services): number | undefined;
  /**
   * Subscribes to signals that this job has work now: a run starts at once, or right after
   * the one under way. Returns how to unsubscribe, or undefined when there is nothing to hear.
   */
  wakeOn?(services: Services, wake: () => void): (() => Promise<void>) | undefined;
}

export type TransitionKind = components['schemas']['SandboxTransitionKind'];

/** One change that falls due: the object, its organization, and its due instant on the partner's clock. */
export interface DueItem {
  kind: TransitionKind;
  id: string;
  organizationId: string;
  dueAt: string;
}

/**
 * A change a sandbox object makes by itself when its due-at column is reached on its
 * partner's clock: declared by the object's feature (its jobs.ts), applied by the clock's
 * one mechanism (features/clock/timers.ts).
 */
export interface Timer {
  /** The background job that applies it. */
  job: string;
  /** Its objects due by `until` on the clock of `scope`, earliest first (the query adds storage/clockScope.ts `followsClock`). */
  due(db: Db, scope: DueScope, until: string, limit: number): Promise<DueItem[]>;
  /**
   * Applies one, if still due at `services.clock`: locks the object, checks again and makes
   * the change with its event in one transaction. True when it changed the object.
   */
  apply(services: Services, item: DueItem): Promise<boolean>;
}
