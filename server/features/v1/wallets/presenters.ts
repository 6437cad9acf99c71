/** The v1 wallet exactly as `v1GetWallet` returns it. */
import type { components } from '../../../../generated/types/ramp.ts';
import { present } from '../common.ts';
import type { V1WalletRow } from '../repository.ts';

type Schemas = components['schemas'];

export function presentV1Wallet(row: V1WalletRow): Schemas['V1Wallet'] {
  return present<Schemas['V1Wallet']>({
    id: row.id,
    customerId: row.customer_id,
    address: row.address,
    blockchain: row.blockchain,
    custody: row.custody,
    signerPublicKey: row.custody === 'embedded' ? row.signer_public_key : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
