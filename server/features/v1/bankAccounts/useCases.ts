/**
 * v1 bank accounts: a customer's CLABE, the destination of offramp payouts, verified by the
 * bank (status) and by compliance (`compliant`); and the deprecated presigned onboarding
 * URLs that redeem for them.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { components } from '../../../../generated/types/ramp.ts';
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import { isUniqueViolation, v1BankAccountsRepository, v1OnboardingLinksRepository, type V1BankAccountRow, type V1NewRow } from '../repository.ts';
import { clabeProblem } from '../../../shared/clabe.ts';
import { isApproved } from '../../organizations/rules.ts';
import { initialBankAccountStatus } from './machine.ts';
import { ownedBy, v1Customer } from '../common.ts';
import { clocksRepository, timeOf } from '../../clock/repository.ts';

type CreateBankAccount = components['schemas']['V1CreateBankAccountRequest'];

/** Banks by the first three digits of a CLABE (Banxico's participant codes), for default labels. */
const banks: Record<string, string> = {
  '002': 'Banamex',
  '012': 'BBVA',
  '014': 'Santander',
  '021': 'HSBC',
  '030': 'Bajío',
  '036': 'Inbursa',
  '044': 'Scotiabank',
  '058': 'Banregio',
  '072': 'Banorte',
  '127': 'Azteca',
  '137': 'BanCoppel',
  '638': 'Nu México',
  '646': 'STP',
};

export const bankName = (clabe: string) => banks[clabe.slice(0, 3)] ?? `Bank ${clabe.slice(0, 3)}`;

/** "BBVA ****7899": the default label, and how an approval names the payout account. */
export const bankAccountShortName = (clabe: string) => `${bankName(clabe)} ****${clabe.slice(-4)}`;

export async function createV1BankAccount(services: Services, caller: Caller, body: CreateBankAccount): Promise<V1BankAccountRow> {
  const invalid = clabeProblem(body.clabe);
  if (invalid) throw new Problem('invalid-request', `Invalid CLABE: ${invalid}`);
  const { db } = services.storage;
  const customer = await v1Customer(services, caller, body.customerId);
  const accounts = v1BankAccountsRepository(db);
  const taken = (holder: { customer_id: string }) =>
    new Problem('conflict', holder.customer_id === customer.id ? 'Bank account already registered' : 'Bank account is registered to another organization');
  const existing = await accounts.findByClabe(body.clabe);
  if (existing) throw taken(existing);
  const now = services.clock.now().toISOString();
  const row: V1NewRow<V1BankAccountRow> = {
    id: randomUUID(),
    partner_id: caller.organization.id,
    customer_id: customer.id,
    clabe: body.clabe,
    account_label: body.accountLabel ?? bankAccountShortName(body.clabe),
    currency: body.currency,
    role: 'owner',
    status: initialBankAccountStatus,
    // Compliance follows the customer's verification at registration time.
    compliant: isApproved(customer) ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  try {
    return await accounts.insert(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Registered by someone else a moment ago.
    const winner = await accounts.findByClabe(body.clabe);
    throw winner ? taken(winner) : error;
  }
}

export async function getV1BankAccount(services: Services, caller: Caller, id: string): Promise<V1BankAccountRow> {
  return ownedBy(await v1BankAccountsRepository(services.storage.db).find(id.toLowerCase()), caller, 'Bank account not found');
}

/** How long a presigned onboarding URL stays valid. */
export const onboardingUrlLifetimeSeconds = 3600;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The bank accounts behind a presigned onboarding URL; 401 for any URL not issued as is, or expired. */
export async function redeemV1OnboardingUrl(services: Services, presignedUrl: string): Promise<V1BankAccountRow[]> {
  const refused = new Problem('unauthorized', 'Invalid or expired presigned URL');
  let url: URL;
  try {
    url = new URL(presignedUrl);
  } catch {
    throw new Problem('invalid-request', 'presignedUrl is not a URL');
  }
  const prefix = `${services.config.appUrl}/onboarding/`;
  const base = `${url.origin}${url.pathname}`;
  if (!base.startsWith(prefix)) throw refused;
  const id = base.slice(prefix.length);
  const expires = url.searchParams.get('expires');
  const signature = url.searchParams.get('signature');
  if (!/^[0-9a-f-]{36}$/.test(id) || !expires || !/^[0-9]+$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature)) throw refused;
  const { db } = services.storage;
  const link = await v1OnboardingLinksRepository(db).find(id);
  if (!link) throw refused;
  const matches = timingSafeEqual(Buffer.from(sha256(signature), 'hex'), Buffer.from(link.signature_hash, 'hex'));
  const expiresAt = Date.parse(link.expires_at);
  // The URL carries no key: its expiry is checked on the clock it was issued on, its partner's.
  const now = timeOf(await clocksRepository(db).ofOrganization(link.partner_id), services.realClock.now());
  if (!matches || Number(expires) * 1000 !== expiresAt || now.getTime() >= expiresAt) throw refused;
  return v1BankAccountsRepository(db).ofCustomer(link.customer_id);
}
