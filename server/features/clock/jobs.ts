/**
 * The sandbox's timers as background jobs (registered in server/jobs.ts): each applies what
 * is due now on every running clock (timers.ts `applyDueNow`); the timers' apply-one
 * functions stay with their features (orders, paymentAccounts, v1/orders jobs.ts).
 */
import type { Job } from '../../services.ts';
import { applyDueNow, timers } from './timers.ts';

/** One background job per timer, under the names the jobs always had. */
export const timerJobs: Job[] = timers.map((timer) => ({ name: timer.job, run: (services) => applyDueNow(services, timer) }));
