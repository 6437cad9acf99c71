/** What handlers and the domain use: storage, configuration, the clock and the logger. */
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Contract } from './contract.ts';
import type { PriceFeed } from './domain/prices.ts';
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
}

export const isoNow = (services: Pick<Services, 'clock'>) => services.clock.now().toISOString();
