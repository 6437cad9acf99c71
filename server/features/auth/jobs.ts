/** What sign-in does on its own (registered in server/jobs.ts). */
import type { Job } from '../../services.ts';
import { authRepository } from './repository.ts';

/** Background job: forget expired JWT ids and tokens. */
export const authCleanupJob: Job = {
  name: 'auth-cleanup',
  async run(services) {
    await authRepository(services.storage.db).purgeExpired(services.realClock.now().toISOString());
  },
};
