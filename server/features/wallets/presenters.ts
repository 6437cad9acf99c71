/** The wallet exactly as `createWallet` and `listWallets` return it. */
import type { components } from '../../../generated/types/ramp.ts';
import type { WalletRow } from './repository.ts';

type Wallet = components['schemas']['Wallet'];

export function presentWallet(row: WalletRow): Wallet {
  return {
    id: row.id,
    organizationId: row.organization_id,
    address: row.address,
    blockchain: row.blockchain,
    custody: row.custody,
    ...(row.signer_public_key !== null ? { signerPublicKey: row.signer_public_key } : {}),
    createdAt: row.created_at,
  };
}
