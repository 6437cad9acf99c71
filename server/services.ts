/**
 * What handlers, use cases and jobs receive: storage, configuration, the contract, the clock,
 * the logger and the price feed; and the shape of a background job, which receives them too.
 */
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Contract } from './shared/contract.ts';
import type { PriceFeed } from './features/prices/feed.ts';
import type { Storage } from './storage/database.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Services {
  config: Config;
  storage: Storage;
  contract: Contract;
  logger: Logger;
  clock: Clock;
  prices: PriceFeed;
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
