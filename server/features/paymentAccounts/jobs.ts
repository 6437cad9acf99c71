/** What the rail does on its own (registered in server/jobs.ts). */
import type { Job } from '../../services.ts';
import { paymentAccountsRepository } from './repository.ts';
import { mapDirections, type Rails } from './machine.ts';
import { save } from './useCases.ts';

/** The rail finishing its verification: pending directions of due accounts become ready. */
export const verifyPaymentAccounts: Job = {
  name: 'verifyPaymentAccounts',
  async run(services) {
    const { storage } = services;
    const due = await paymentAccountsRepository(storage.db).dueForVerification(services.clock.now().toISOString());
    for (const { id, organization_id } of due) {
      await storage.db.transaction().execute(async (tx) => {
        const row = await paymentAccountsRepository(tx, storage.engine).findForUpdate(organization_id, id);
        // Another process got there first, or the account changed since.
        if (!row || row.verify_at === null || row.verify_at > services.clock.now().toISOString()) return;
        const rails = mapDirections(JSON.parse(row.rails) as Rails, (s) => (s === 'pending' ? 'ready' : s));
        await save(services, tx, row, { rails, disabled: row.status === 'disabled', verifyAt: null });
      });
    }
  },
};
