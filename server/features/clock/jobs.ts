/**
 * The sandbox's timers as background jobs: each applies what is due now on every running
 * clock (timers.ts `applyDueNow`). The timers themselves are declared by their features and
 * gathered by server/jobs.ts.
 */
import type { Job, Timer } from '../../services.ts';
import { applyDueNow } from './timers.ts';

/** A timer's background job, under the name the job always had. */
export const timerJob = (timer: Timer): Job => ({ name: timer.job, run: (services) => applyDueNow(services, timer) });
