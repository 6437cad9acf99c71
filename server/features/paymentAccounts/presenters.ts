/** The payment account exactly as `getPaymentAccount` returns it and `paymentAccountUpdated` carries it. */
import type { PaymentAccountRow } from './repository.ts';
import type { PaymentAccount, Rails } from './machine.ts';

export function presentPaymentAccount(row: PaymentAccountRow): PaymentAccount {
  return {
    id: row.id,
    organizationId: row.organization_id,
    kind: row.kind,
    status: row.status,
    rails: JSON.parse(row.rails) as Rails,
    accountDetails: { clabe: row.clabe, ...(row.memo !== null ? { memo: row.memo } : {}) },
    registrationInfo: { accountHolderName: row.account_holder_name, taxId: row.tax_id },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
