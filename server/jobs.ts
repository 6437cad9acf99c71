/**
 * Background work that a real service does on its own: webhook delivery, a bank verifying
 * an account, a deposit settling. Each job reads what is due from the database (never from
 * memory), so a restart resumes it and two processes share it. Register a job in `jobs` and
 * a timer in `timers` (the registry: only the process's entry points import it; a feature
 * declares its jobs and timers in its own jobs.ts).
 */
import type { Job, Services, Timer } from './services.ts';
import { authCleanupJob } from './features/auth/jobs.ts';
import { sandboxPartnerExpiryJob } from './features/sandboxPartners/jobs.ts';
import { timerJob } from './features/clock/jobs.ts';
import { ordersTimers } from './features/orders/jobs.ts';
import { paymentAccountsTimers } from './features/paymentAccounts/jobs.ts';
import { v1OrdersTimers } from './features/v1/orders/jobs.ts';
import { deliveryJob } from './features/webhooks/delivery.ts';

export type { Job };

/**
 * Every change a sandbox object makes by itself on its partner's clock (Services.timers).
 * Changes due at one instant are applied in this order.
 */
export const timers: readonly Timer[] = [...ordersTimers, ...paymentAccountsTimers, ...v1OrdersTimers];

/** The timers' jobs (settlements, verifications, funding deadlines) apply what is due on each partner's sandbox clock. */
export const jobs: Job[] = [deliveryJob, ...timers.map(timerJob), authCleanupJob, sandboxPartnerExpiryJob];

export interface RunningJobs {
  /** Runs every job once now and waits for it (tests use this to avoid sleeping). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startJobs(services: Services, intervalMs: number, registered: Job[] = jobs): RunningJobs {
  let stopped = false;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  const runOne = async (job: Job) => {
    try {
      await job.run(services, stopping.signal);
    } catch (error) {
      // An outage is logged once by storage (health.ts), not on every run; the next run
      // after it picks up what fell due meanwhile.
      if (services.storage.health.failed(error)) return;
      services.logger.error({ err: error, job: job.name }, 'job failed');
    }
  };
  /** One run, tracked so that stop() waits for it. */
  const runTracked = async (job: Job) => {
    const run = runOne(job);
    running.add(run);
    await run;
    running.delete(run);
  };
  const loops = registered.map((job) => {
    const every = job.intervalMs?.(services) ?? intervalMs;
    let timer: NodeJS.Timeout | undefined;
    let inRun = false;
    let wokenDuringRun = false;
    const loop = async () => {
      timer = undefined;
      if (stopped) return;
      inRun = true;
      wokenDuringRun = false;
      await runTracked(job);
      inRun = false;
      if (!stopped) timer = setTimeout(loop, wokenDuringRun ? 0 : every);
    };
    const wake = () => {
      if (stopped) return;
      if (inRun) {
        wokenDuringRun = true;
      } else if (timer) {
        clearTimeout(timer);
        timer = setTimeout(loop, 0);
      }
    };
    timer = setTimeout(loop, every);
    const unsubscribe = job.wakeOn?.(services, wake);
    return {
      async stop() {
        clearTimeout(timer);
        await unsubscribe?.();
      },
    };
  });
  return {
    async tick() {
      await Promise.all(registered.map(runTracked));
    },
    async stop() {
      stopped = true;
      stopping.abort();
      await Promise.all(loops.map((loop) => loop.stop()));
      await Promise.all(running);
    },
  };
}
