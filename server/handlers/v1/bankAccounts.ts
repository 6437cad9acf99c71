/** v1 bank accounts (`/ramp/bank-accounts`, `/ramp/bank-account…`) and the deprecated onboarding redemption. */
import { createV1BankAccount, getV1BankAccount, redeemV1OnboardingUrl } from '../../features/v1/bankAccounts/useCases.ts';
import { listV1 } from '../../features/v1/lists.ts';
import { presentV1BankAccount } from '../../features/v1/bankAccounts/presenters.ts';
import type { Handler } from '../types.ts';

export const v1ListBankAccounts: Handler<'v1ListBankAccounts'> = async ({ services, caller, body, query }) => ({
  status: 200,
  body: await listV1(services, caller, 'bank-accounts', { body, query }),
});

export const v1ListCustomerBankAccounts: Handler<'v1ListCustomerBankAccounts'> = async ({ services, caller, params, body, query }) => ({
  status: 200,
  body: await listV1(services, caller, 'bank-accounts', { customerId: params.customer_id, body, query }),
});

export const v1CreateBankAccount: Handler<'v1CreateBankAccount'> = async ({ services, caller, body }) => ({
  status: 201,
  body: presentV1BankAccount(await createV1BankAccount(services, caller, body)),
});

export const v1GetBankAccount: Handler<'v1GetBankAccount'> = async ({ services, caller, params }) => ({
  status: 200,
  body: presentV1BankAccount(await getV1BankAccount(services, caller, params.id)),
});

/** Public (deprecated): the presigned URL is the credential. */
export const v1OnboardBankAccounts: Handler<'v1OnboardBankAccounts'> = async ({ services, body }) => ({
  status: 200,
  body: { bank_accounts: (await redeemV1OnboardingUrl(services, body.presignedUrl)).map(presentV1BankAccount) },
});
