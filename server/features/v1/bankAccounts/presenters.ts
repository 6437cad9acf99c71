/** The v1 bank account exactly as `v1GetBankAccount` returns it and `bank_account_updated` carries it. */
import type { components } from '../../../../generated/types/ramp.ts';
import type { V1BankAccountRow } from '../repository.ts';

type Schemas = components['schemas'];

export function presentV1BankAccount(row: V1BankAccountRow): Schemas['V1BankAccount'] {
  return {
    accountLabel: row.account_label,
    compliant: row.compliant === 1,
    currency: row.currency as Schemas['V1BankAccount']['currency'],
    internalAccountId: row.id,
    organizationId: row.customer_id,
    role: row.role,
    status: row.status,
    clabe: row.clabe,
    createdAt: row.created_at,
  };
}
