/**
 * Background work that a real service does on its own: webhook delivery, a bank verifying
 * an account, a deposit settling. Each job reads what is due from the database (never from
 * memory), so a restart resumes it and two processes share it. Register a job in `jobs`.
 */
import type { Services } from './services.ts';
import { authCleanupJob } from './domain/auth/signIn.ts';
import { deliveryJob } from './webhooks/delivery.ts';
import { v1SettlementJob } from './domain/v1/settlement.ts';
import { expireOrderFunding, settleOrders } from './domain/orders.ts';
import { verifyPaymentAccounts } from './domain/paymentAccounts.ts';

export interface Job {
  name: string;
  /** Runs every `intervalMs`; the next run starts only after this one ended. */
  run(services: Services): Promise<void>;
}

export const jobs: Job[] = [v1SettlementJob, deliveryJob, verifyPaymentAccounts, settleOrders, expireOrderFunding, authCleanupJob];

export interface RunningJobs {
  /** Runs every job once now and waits for it (tests use this to avoid sleeping). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startJobs(services: Services, intervalMs: number, registered: Job[] = jobs): RunningJobs {
  let stopped = false;
  const running = new Set<Promise<void>>();
  const runOne = async (job: Job) => {
    try {
      await job.run(services);
    } catch (error) {
      services.logger.error({ err: error, job: job.name }, 'job failed');
    }
  };
  const loops = registered.map((job) => {
    let timer: NodeJS.Timeout | undefined;
    const loop = async () => {
      if (stopped) return;
      const run = runOne(job);
      running.add(run);
      await run;
      running.delete(run);
      if (!stopped) timer = setTimeout(loop, intervalMs);
    };
    timer = setTimeout(loop, intervalMs);
    return { stop: () => clearTimeout(timer) };
  });
  return {
    async tick() {
      await Promise.all(registered.map(runOne));
    },
    async stop() {
      stopped = true;
      for (const loop of loops) loop.stop();
      await Promise.all(running);
    },
  };
}
