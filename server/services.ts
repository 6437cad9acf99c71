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
  clock: Clock;
  prices: PriceFeed;
}

export const isoNow = (services: Pick<Services, 'clock'>) => services.clock.now().toISOString();
