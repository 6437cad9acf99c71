/**
 * Wallets (v2): external wallets the customer holds, and embedded (non-custodial) wallets
 * whose P-256 `signerPublicKey` verifies the authorizations of orders spending from them.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/types/ramp.ts';
import { Problem, validationError, type FieldError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { OrganizationRow } from '../organizations/repository.ts';
import { presentWallet } from './presenters.ts';
import { walletsRepository, type NewWalletRow } from './repository.ts';
import { pageMeta, type PageRequest } from '../../shared/pagination.ts';
import { p256PublicKey } from '../../shared/signatures.ts';

type Schemas = components['schemas'];
export type Wallet = Schemas['Wallet'];
export type WalletRequest = Schemas['WalletRequest'];

/** The usual notation of an address on each chain. */
const addressShapes: Record<Wallet['blockchain'], { pattern: RegExp; what: string }> = {
  solana: { pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, what: 'a base58 Solana address (32 to 44 characters)' },
  ethereum: { pattern: /^0x[0-9a-fA-F]{40}$/, what: 'a 0x-prefixed 20-byte hex address' },
  polygon: { pattern: /^0x[0-9a-fA-F]{40}$/, what: 'a 0x-prefixed 20-byte hex address' },
  base: { pattern: /^0x[0-9a-fA-F]{40}$/, what: 'a 0x-prefixed 20-byte hex address' },
};

export async function createWallet(services: Services, organization: OrganizationRow, request: WalletRequest): Promise<Wallet> {
  const errors: FieldError[] = [];
  const shape = addressShapes[request.blockchain];
  if (!shape.pattern.test(request.address)) errors.push({ pointer: '/address', detail: `must be ${shape.what}` });
  // The contract requires signerPublicKey on an embedded wallet and refuses it on an external one.
  if (request.custody === 'embedded' && !p256PublicKey(request.signerPublicKey ?? '')) {
    errors.push({ pointer: '/signerPublicKey', detail: 'is not a point of the P-256 curve' });
  }
  if (errors.length > 0) throw validationError(errors);
  const row: NewWalletRow = {
    id: randomUUID(),
    organization_id: organization.id,
    address: request.address,
    blockchain: request.blockchain,
    custody: request.custody,
    signer_public_key: request.signerPublicKey ?? null,
    created_at: services.clock.now().toISOString(),
  };
  const stored = await walletsRepository(services.storage.db).insert(row);
  if (!stored) throw new Problem('conflict', `Wallet ${request.address} on ${request.blockchain} is already registered.`);
  return presentWallet(stored);
}

export async function listWallets(services: Services, organization: OrganizationRow, page: PageRequest) {
  const { items, total } = await walletsRepository(services.storage.db).page(organization.id, page);
  return { items: items.map(presentWallet), ...pageMeta(page, total) };
}
