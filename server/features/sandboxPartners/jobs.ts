/** What isolated sandbox partners do on their own (registered in server/jobs.ts). */
import type { Job } from '../../services.ts';
import { expireIdlePartners } from './useCases.ts';

/** Background job: delete the partners made by POST /sandbox/partners that nobody used for the idle time. */
export const sandboxPartnerExpiryJob: Job = {
  name: 'sandbox-partner-expiry',
  async run(services) {
    if (services.config.env === 'production') return;
    await expireIdlePartners(services, services.realClock.now());
  },
  // The idle time is hours: a minute late is nothing, and checking every 200 ms would be waste.
  intervalMs: (services) => Math.max(services.config.jobIntervalMs, 60_000),
};
