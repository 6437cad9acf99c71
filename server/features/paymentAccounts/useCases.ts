/**
 * Payment accounts (v2: createPaymentAccount, the PaymentAccount schema): a bank account registered by CLABE for an
 * organization on a rail. Each rail direction moves `pending` → `ready` when the rail has
 * verified the account (a job; quick in the sandbox), and `paymentAccountUpdated` is sent
 * on every change of the account status or of a direction.
 */
import { randomUUID } from 'node:crypto';
import { Problem } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { Db, Tx } from '../../storage/database.ts';
import { organizationsRepository, type OrganizationRow } from '../organizations/repository.ts';
import { accountStatus, type Direction, type PaymentAccount, type Rail, type Rails } from './machine.ts';
import { presentPaymentAccount } from './presenters.ts';
import { paymentAccountsRepository, type NewPaymentAccountRow, type PaymentAccountRow } from './repository.ts';
import { verificationsRepository } from '../verification/repository.ts';
import { changeState } from '../stateChange.ts';
import { clabeProblem } from '../../shared/clabe.ts';
import { isApproved } from '../organizations/rules.ts';
import { pageMeta, type PageRequest } from '../../shared/pagination.ts';

/** What each rail carries and its limits, in the rail's currency (PaymentAccountRail's minAmount and maxAmount; the values are designed). */
export const railSpecs: Record<Rail, { currency: string; minAmount: string; maxAmount: string }> = {
  spei: { currency: 'MXN', minAmount: '1.00', maxAmount: '500000.00' },
};

/** How long the sandbox's "bank" takes to verify a new account on its rail. */
export const verificationDelayMs = 1000;

/** Registration fields every rail needs, as JSON Pointers into the request. */
export const registrationFields = ['/registrationInfo/accountHolderName', '/registrationInfo/taxId'];

/**
 * The organization's verified tax id (omitting `registrationInfo.taxId` uses it, and a sent
 * one must equal it): the `taxId` of the KYC (a person) or KYB (a business) submission that
 * verification approved, kept by the verification flows in `verifications.submission`.
 * None until the verification is approved: a tax id that is only submitted (or in review,
 * or denied) is the customer's claim, not a verified fact, so it neither fills in nor
 * refuses a registration (createPaymentAccount in the contract). Approval is final, so the
 * submission it approved no longer changes.
 */
export async function verifiedTaxId(db: Db | Tx, organization: OrganizationRow): Promise<string | undefined> {
  if (!isApproved(organization)) return undefined;
  const verification = await verificationsRepository(db).find(organization.id, organization.type === 'personal' ? 'kyc' : 'kyb');
  if (!verification?.submission) return undefined;
  try {
    const taxId = (JSON.parse(verification.submission) as { taxId?: unknown }).taxId;
    return typeof taxId === 'string' && taxId !== '' ? taxId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tax id an omitted `taxId` takes when the organization is approved with nothing
 * submitted: the sandbox provider approving that way reuses an earlier verification
 * (simulateKyc, simulateKyb), and this is its tax id. Without it, the console's story (Approve
 * KYC, then register a CLABE with the tax id left empty) was refused. The sandbox holds no
 * submission to compare a sent tax id with, so a sent one is registered as sent, as before.
 */
export const reusedVerificationTaxIds: Record<OrganizationRow['type'], string> = { personal: 'SBXP800101AB1', business: 'SBX800101AB1' };

/** Refuses an account that cannot be used in `direction` on `rail` (quotes and orders). */
export function assertUsable(row: PaymentAccountRow, rail: Rail, direction: Direction) {
  if (row.status === 'disabled') throw new Problem('payment-account-disabled', `Payment account ${row.id} is disabled.`);
  const state = (JSON.parse(row.rails) as Rails)[rail];
  if (!state) throw new Problem('payment-account-not-ready', `Payment account ${row.id} is not registered on the ${rail} rail.`);
  if (state[direction] === undefined) throw new Problem('payment-account-not-ready', `Payment account ${row.id} does not carry the ${direction} direction on ${rail}.`);
  if (state[direction] !== 'ready') throw new Problem('payment-account-not-ready', `Payment account ${row.id} is not ready as a ${rail} ${direction}.`);
}

export interface PaymentAccountRequest {
  kind: PaymentAccountRow['kind'];
  rail: Rail;
  accountDetails: { clabe: string; memo?: string };
  registrationInfo?: { accountHolderName?: string; taxId?: string };
}

/** Registers an account, or returns the one the organization already holds (`created` false). */
export async function registerPaymentAccount(
  services: Services,
  organization: OrganizationRow,
  request: PaymentAccountRequest,
): Promise<{ created: boolean; account: PaymentAccount }> {
  if (request.kind === 'debitCard') throw new Problem('unsupported', 'debitCard payment accounts are not supported.');
  const { clabe } = request.accountDetails;
  const wrong = clabeProblem(clabe);
  if (wrong) throw new Problem('invalid-request', `accountDetails.clabe ${clabe}: ${wrong}`);
  const repository = paymentAccountsRepository(services.storage.db);
  const held = await repository.findByClabe(clabe);
  if (held) return { created: false, account: existing(held, organization) };

  const name = request.registrationInfo?.accountHolderName;
  const sentTaxId = request.registrationInfo?.taxId;
  const verified = await verifiedTaxId(services.storage.db, organization);
  const omittedTaxId = verified ?? (isApproved(organization) ? reusedVerificationTaxIds[organization.type] : undefined);
  const missing = [
    ...(name ? [] : ['/registrationInfo/accountHolderName']),
    ...(sentTaxId || omittedTaxId ? [] : ['/registrationInfo/taxId']),
  ];
  if (missing.length > 0) {
    throw new Problem('registration-info-required', `The ${request.rail} rail needs registration fields that were not sent.`, { required: registrationFields, missing });
  }
  if (sentTaxId && verified && sentTaxId !== verified) {
    throw new Problem('holder-tax-id-mismatch', 'registrationInfo.taxId differs from the verified tax id; omit it to use the verified one.');
  }
  const now = services.clock.now();
  const spec = railSpecs[request.rail];
  const rails: Rails = { [request.rail]: { destination: 'pending', minAmount: spec.minAmount, maxAmount: spec.maxAmount } };
  const row: NewPaymentAccountRow = {
    id: randomUUID(),
    organization_id: organization.id,
    kind: request.kind,
    clabe,
    memo: request.accountDetails.memo ?? null,
    account_holder_name: name!,
    tax_id: (sentTaxId ?? omittedTaxId)!,
    status: accountStatus(rails, false),
    rails: JSON.stringify(rails),
    verify_at: new Date(now.getTime() + verificationDelayMs).toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const stored = await repository.insert(row);
  if (stored) return { created: true, account: presentPaymentAccount(stored) };
  // A registration of the same CLABE won the race: answer as if it had come first.
  const winner = await repository.findByClabe(clabe);
  if (!winner) throw new Problem('conflict', `Account ${clabe} is being registered; retry to read it.`);
  return { created: false, account: existing(winner, organization) };
}

function existing(held: PaymentAccountRow, organization: OrganizationRow): PaymentAccount {
  if (held.organization_id !== organization.id) throw new Problem('payment-account-unavailable', 'This account is registered by another organization.');
  if (held.status === 'disabled') throw new Problem('payment-account-disabled', `Payment account ${held.id} is disabled.`);
  return presentPaymentAccount(held);
}

export async function getPaymentAccount(services: Services, organization: OrganizationRow, id: string): Promise<PaymentAccount> {
  const row = await paymentAccountsRepository(services.storage.db).find(organization.id, id);
  if (!row) throw new Problem('not-found', `Payment account ${id} was not found.`);
  return presentPaymentAccount(row);
}

export async function listPaymentAccounts(services: Services, organization: OrganizationRow, page: PageRequest) {
  const { items, total } = await paymentAccountsRepository(services.storage.db).page(organization.id, page);
  return { items: items.map(presentPaymentAccount), ...pageMeta(page, total) };
}

/** The next state of an account: its directions, whether it is disabled, when the rail verifies it next. */
export interface AccountChange {
  rails: Rails;
  disabled: boolean;
  verifyAt: string | null;
}

/**
 * One change of a payment account (features/stateChange.ts): locked, `decide` gives its next
 * state (undefined: nothing to do), written when anything changed, with
 * `paymentAccountUpdated` when its status or a direction changed. Without `id`'s account the
 * lock is 404, unless `missing` is 'nothing' (a timer, which then changes nothing).
 */
export function changePaymentAccount(
  services: Services,
  organizationId: string,
  id: string,
  decide: (row: PaymentAccountRow, now: Date) => AccountChange | undefined,
  missing: 'not-found' | 'nothing' = 'not-found',
): Promise<PaymentAccountRow | undefined> {
  const { storage } = services;
  return changeState<PaymentAccountRow | undefined, AccountChange>(services, {
    async lock(tx) {
      const row = await paymentAccountsRepository(tx, storage.engine).findForUpdate(organizationId, id);
      if (!row && missing === 'not-found') throw new Problem('not-found', `Payment account ${id} was not found.`);
      return row;
    },
    decide: (row, now) => (row ? decide(row, now) : undefined),
    async write(tx, before, next, now) {
      const status = accountStatus(next.rails, next.disabled);
      const rails = JSON.stringify(next.rails);
      const changed = status !== before.status || rails !== before.rails;
      if (!changed && next.verifyAt === before.verify_at) return { row: before, events: [] };
      const after: PaymentAccountRow = { ...before, status, rails, verify_at: next.verifyAt, updated_at: changed ? now.toISOString() : before.updated_at };
      await paymentAccountsRepository(tx).update(before.id, { status: after.status, rails: after.rails, verify_at: after.verify_at, updated_at: after.updated_at });
      if (!changed) return { row: after, events: [] };
      const organization = (await organizationsRepository(tx).find(before.organization_id))!;
      return { row: after, events: [{ type: 'paymentAccountUpdated', organization, object: { paymentAccount: presentPaymentAccount(after) } }] };
    },
  });
}
