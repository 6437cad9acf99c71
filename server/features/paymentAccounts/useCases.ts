/**
 * Payment accounts (v2, seed parts 2, 3 and 7): a bank account registered by CLABE for an
 * organization on a rail. Each rail direction moves `pending` → `ready` when the rail has
 * verified the account (a job; quick in the sandbox), and `paymentAccountUpdated` is sent
 * on every change of the account status or of a direction.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/types/ramp.ts';
import type { Job } from '../../services.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { Db, Tx } from '../../storage/database.ts';
import { organizationsRepository, type OrganizationRow } from '../organizations/repository.ts';
import { paymentAccountsRepository, type NewPaymentAccountRow, type PaymentAccountRow } from './repository.ts';
import { verificationsRepository } from '../verification/repository.ts';
import { recordV2Event } from '../webhooks/outbox.ts';
import { clabeProblem } from '../../shared/clabe.ts';
import { isApproved } from '../organizations/rules.ts';
import { pageMeta, type PageRequest } from '../../shared/pagination.ts';

type Schemas = components['schemas'];
export type PaymentAccount = Schemas['PaymentAccount'];
export type Rail = Schemas['Rail'];
export type Direction = 'source' | 'destination';
export type DirectionStatus = Schemas['RailDirectionStatus'];
export type Rails = Partial<Record<Rail, Schemas['PaymentAccountRail']>>;

/** What each rail carries and its limits, in the rail's currency (seed part 8: not shown, designed). */
export const railSpecs: Record<Rail, { currency: string; minAmount: string; maxAmount: string }> = {
  spei: { currency: 'MXN', minAmount: '1.00', maxAmount: '500000.00' },
};

/** How long the sandbox's "bank" takes to verify a new account on its rail. */
export const verificationDelayMs = 1000;

/** Registration fields every rail needs, as JSON Pointers into the request. */
export const registrationFields = ['/registrationInfo/accountHolderName', '/registrationInfo/taxId'];

const directions: Direction[] = ['source', 'destination'];

export function presentPaymentAccount(row: PaymentAccountRow): PaymentAccount {
  return {
    id: row.id,
    organizationId: row.organization_id,
    kind: row.kind as PaymentAccount['kind'],
    status: row.status as PaymentAccount['status'],
    rails: JSON.parse(row.rails) as Rails,
    accountDetails: { clabe: row.clabe, ...(row.memo !== null ? { memo: row.memo } : {}) },
    registrationInfo: { accountHolderName: row.account_holder_name, taxId: row.tax_id },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `ready` once any direction is ready, `pending` otherwise; `disabled` overrides both. */
export function accountStatus(rails: Rails, disabled: boolean): PaymentAccount['status'] {
  if (disabled) return 'disabled';
  const ready = Object.values(rails).some((rail) => directions.some((d) => rail?.[d] === 'ready'));
  return ready ? 'ready' : 'pending';
}

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

/** Refuses an account that cannot be used in `direction` on `rail` (quotes and orders). */
export function assertUsable(row: PaymentAccountRow, rail: Rail, direction: Direction) {
  if (row.status === 'disabled') throw new Problem('payment-account-disabled', `Payment account ${row.id} is disabled.`);
  const state = (JSON.parse(row.rails) as Rails)[rail];
  if (!state) throw new Problem('payment-account-not-ready', `Payment account ${row.id} is not registered on the ${rail} rail.`);
  if (state[direction] === undefined) throw new Problem('payment-account-not-ready', `Payment account ${row.id} does not carry the ${direction} direction on ${rail}.`);
  if (state[direction] !== 'ready') throw new Problem('payment-account-not-ready', `Payment account ${row.id} is not ready as a ${rail} ${direction}.`);
}

export interface PaymentAccountRequest {
  kind: 'bankAccount' | 'debitCard';
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
  const missing = [
    ...(name ? [] : ['/registrationInfo/accountHolderName']),
    ...(sentTaxId || verified ? [] : ['/registrationInfo/taxId']),
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
    tax_id: (sentTaxId ?? verified)!,
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

/**
 * Writes the new state of an account and, when its status or a direction changed, the
 * `paymentAccountUpdated` event, in the caller's transaction.
 */
async function save(services: Services, tx: Tx, before: PaymentAccountRow, changes: { rails: Rails; disabled: boolean; verifyAt: string | null }) {
  const status = accountStatus(changes.rails, changes.disabled);
  const rails = JSON.stringify(changes.rails);
  const changed = status !== before.status || rails !== before.rails;
  if (!changed && changes.verifyAt === before.verify_at) return before;
  const now = services.clock.now();
  const after: PaymentAccountRow = { ...before, status, rails, verify_at: changes.verifyAt, updated_at: changed ? now.toISOString() : before.updated_at };
  await paymentAccountsRepository(tx).update(before.id, { status: after.status, rails: after.rails, verify_at: after.verify_at, updated_at: after.updated_at });
  if (changed) {
    const organization = await organizationsRepository(tx).find(before.organization_id);
    await recordV2Event(tx, {
      type: 'paymentAccountUpdated',
      organization: organization!,
      occurredAt: now,
      paymentAccount: presentPaymentAccount(after),
    });
  }
  return after;
}

const mapDirections = (rails: Rails, f: (status: DirectionStatus) => DirectionStatus): Rails =>
  Object.fromEntries(
    Object.entries(rails).map(([rail, state]) => [
      rail,
      { ...state, ...Object.fromEntries(directions.filter((d) => state?.[d] !== undefined).map((d) => [d, f(state![d]!)])) },
    ]),
  );

export type SimulatePaymentAccountRequest = Schemas['SimulatePaymentAccountRequest'];

/** The sandbox's stand-in for the rail: enable, disable, or set one direction. */
export async function simulatePaymentAccount(services: Services, organization: OrganizationRow, id: string, request: SimulatePaymentAccountRequest) {
  const railFields = (['rail', 'direction', 'status'] as const).filter((f) => request[f] !== undefined);
  if (request.action === 'setRailStatus') {
    const missing = (['rail', 'direction', 'status'] as const).filter((f) => request[f] === undefined);
    if (missing.length > 0) throw validationError(missing.map((f) => ({ pointer: `/${f}`, detail: 'is required for setRailStatus' })));
  } else if (railFields.length > 0) {
    throw validationError(railFields.map((f) => ({ pointer: `/${f}`, detail: 'is allowed only with setRailStatus' })));
  }
  const { storage } = services;
  return storage.db.transaction().execute(async (tx) => {
    const row = await paymentAccountsRepository(tx, storage.engine).findForUpdate(organization.id, id);
    if (!row) throw new Problem('not-found', `Payment account ${id} was not found.`);
    const rails = JSON.parse(row.rails) as Rails;
    const disabled = row.status === 'disabled';
    const now = services.clock.now();
    let after: PaymentAccountRow;
    if (request.action === 'disable') {
      after = await save(services, tx, row, { rails: mapDirections(rails, () => 'disabled'), disabled: true, verifyAt: null });
    } else if (request.action === 'enable') {
      // Enabling sends the account through the rail's verification again.
      after = disabled
        ? await save(services, tx, row, {
            rails: mapDirections(rails, (s) => (s === 'disabled' ? 'pending' : s)),
            disabled: false,
            verifyAt: new Date(now.getTime() + verificationDelayMs).toISOString(),
          })
        : row;
    } else {
      const rail = request.rail!;
      const state = rails[rail];
      if (!state) throw new Problem('conflict', `Payment account ${id} is not registered on the ${rail} rail.`);
      const next: Rails = { ...rails, [rail]: { ...state, [request.direction!]: request.status! } };
      const stillPending = Object.values(next).some((r) => directions.some((d) => r?.[d] === 'pending'));
      after = await save(services, tx, row, { rails: next, disabled, verifyAt: stillPending ? row.verify_at : null });
    }
    return presentPaymentAccount(after);
  });
}

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
