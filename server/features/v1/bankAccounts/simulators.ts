/** The sandbox's bank for v1 bank accounts (`v1SimulateBankAccount`) and the onboarding link it issues (`v1CreateOnboardingUrl`). */
import { randomBytes, randomUUID } from 'node:crypto';
import type { components } from '../../../../generated/types/ramp.ts';
import type { Caller } from '../../organizations/scope.ts';
import type { Services } from '../../../services.ts';
import { organizationsRepository } from '../../organizations/repository.ts';
import { v1BankAccountsRepository, v1OnboardingLinksRepository, type V1BankAccountRow } from '../repository.ts';
import { recordV1Event } from '../../webhooks/outbox.ts';
import { canMoveBankAccount } from './machine.ts';
import { ownedBy, v1Customer } from '../common.ts';
import { presentV1BankAccount } from './presenters.ts';
import { onboardingUrlLifetimeSeconds, sha256 } from './useCases.ts';

type SimulateBankAccount = components['schemas']['V1SimulateBankAccountRequest'];

/** Sandbox: the bank's verification outcome. `bank_account_updated` only when the status changes. */
export async function simulateV1BankAccount(services: Services, caller: Caller, id: string, body: SimulateBankAccount): Promise<V1BankAccountRow> {
  const { db, engine } = services.storage;
  return db.transaction().execute(async (tx) => {
    const accounts = v1BankAccountsRepository(tx, engine);
    const account = ownedBy(await accounts.find(id.toLowerCase(), true), caller, 'Bank account not found');
    const to = body.status;
    const statusChanges = canMoveBankAccount(account.status, to);
    const compliant = body.compliant === undefined ? account.compliant : body.compliant ? 1 : 0;
    if (!statusChanges && compliant === account.compliant) return account;
    const now = services.clock.now();
    const updated: V1BankAccountRow = { ...account, status: to, compliant, updated_at: now.toISOString() };
    await accounts.update(account.id, { status: to, compliant, updated_at: updated.updated_at });
    if (statusChanges) {
      const customer = await organizationsRepository(tx).find(account.customer_id);
      await recordV1Event(tx, {
        type: 'bank_account_updated',
        organization: customer!,
        occurredAt: now,
        deliverFrom: services.realClock.now(),
        entity: presentV1BankAccount(updated),
      });
    }
    return updated;
  });
}


/**
 * Sandbox: a presigned onboarding URL for a customer,
 * `{app_url}/onboarding/{id}?expires={unix seconds}&signature={64 hex}`. The signature is
 * random and only its hash is stored, so the URL is the whole credential.
 */
export async function issueV1OnboardingUrl(services: Services, caller: Caller, customerId: string) {
  const { db } = services.storage;
  const customer = await v1Customer(db, caller, customerId);
  const now = services.clock.now();
  const expires = Math.floor(now.getTime() / 1000) + onboardingUrlLifetimeSeconds;
  const id = randomUUID();
  const signature = randomBytes(32).toString('hex');
  const expiresAt = new Date(expires * 1000).toISOString();
  await v1OnboardingLinksRepository(db).insert({
    id,
    partner_id: caller.organization.id,
    customer_id: customer.id,
    signature_hash: sha256(signature),
    expires_at: expiresAt,
    created_at: now.toISOString(),
  });
  return { presignedUrl: `${services.config.appUrl}/onboarding/${id}?expires=${expires}&signature=${signature}`, expiresAt };
}
