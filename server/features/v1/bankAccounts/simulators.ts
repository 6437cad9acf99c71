/** The sandbox's bank for v1 bank accounts (`v1SimulateBankAccount`) and the onboarding link it issues (`v1CreateOnboardingUrl`). */
import { randomBytes, randomUUID } from 'node:crypto';
import type { components } from '../../../../generated/types/ramp.ts';
import type { Caller } from '../../organizations/scope.ts';
import type { Services } from '../../../services.ts';
import { organizationsRepository } from '../../organizations/repository.ts';
import { v1BankAccountsRepository, v1OnboardingLinksRepository, type V1BankAccountRow } from '../repository.ts';
import { changeState } from '../../stateChange.ts';
import { Problem } from '../../../shared/problems.ts';
import { v1BankAccountMachine, type V1BankAccountStatus } from './machine.ts';
import { ownedBy, v1Customer } from '../common.ts';
import { presentV1BankAccount } from './presenters.ts';
import { onboardingUrlLifetimeSeconds, sha256 } from './useCases.ts';

type SimulateBankAccount = components['schemas']['V1SimulateBankAccountRequest'];

/** Sandbox: the bank's verification outcome. `bank_account_updated` only when the status changes. */
export function simulateV1BankAccount(services: Services, caller: Caller, id: string, body: SimulateBankAccount): Promise<V1BankAccountRow> {
  const { engine } = services.storage;
  return changeState<V1BankAccountRow, { status: V1BankAccountStatus; moved: boolean; compliant: number }>(services, {
    lock: async (tx) => ownedBy(await v1BankAccountsRepository(tx, engine).find(id.toLowerCase(), true), caller, 'Bank account not found'),
    decide(account) {
      const decision = v1BankAccountMachine.decide(account.status, body.status);
      // Every status reaches every other (the machine's table): a refusal cannot happen.
      if (!decision.allowed) throw new Problem('conflict', `Bank account ${account.id} cannot go from ${account.status} to ${body.status}.`);
      const compliant = body.compliant === undefined ? account.compliant : body.compliant ? 1 : 0;
      if (!decision.moved && compliant === account.compliant) return undefined;
      return { status: decision.to, moved: decision.moved, compliant };
    },
    async write(tx, account, change, now) {
      const updated: V1BankAccountRow = { ...account, status: change.status, compliant: change.compliant, updated_at: now.toISOString() };
      await v1BankAccountsRepository(tx).update(account.id, { status: change.status, compliant: change.compliant, updated_at: updated.updated_at });
      if (!change.moved) return { row: updated, events: [] };
      const customer = (await organizationsRepository(tx).find(account.customer_id))!;
      return { row: updated, events: [{ type: 'bank_account_updated', organization: customer, entity: presentV1BankAccount(updated) }] };
    },
  });
}

/**
 * Sandbox: a presigned onboarding URL for a customer,
 * `{app_url}/onboarding/{id}?expires={unix seconds}&signature={64 hex}`. The signature is
 * random and only its hash is stored, so the URL is the whole credential.
 */
export async function issueV1OnboardingUrl(services: Services, caller: Caller, customerId: string) {
  const { db } = services.storage;
  const customer = await v1Customer(services, caller, customerId);
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
