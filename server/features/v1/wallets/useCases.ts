/** v1 wallets: external ones the customer controls, embedded ones the service holds for them. */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../../generated/types/ramp.ts';
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import { isUniqueViolation, v1WalletsRepository, type V1NewRow, type V1WalletRow } from '../repository.ts';
import { fitsChain, isP256PublicKey, newAddress } from '../../../shared/world.ts';
import { ownedBy, v1Customer } from '../common.ts';

type CreateWallet = components['schemas']['V1CreateWalletRequest'];

const duplicate = () => new Problem('conflict', 'Wallet already registered');

/** The custody rules, checked before anything is looked up or stored. */
function checkCustody(body: CreateWallet): void {
  if (body.custody === 'external') {
    if (!body.address) throw new Problem('invalid-request', 'address is required for an external wallet');
    if (body.signerPublicKey) throw new Problem('invalid-request', 'signerPublicKey is only allowed for an embedded wallet');
    if (!fitsChain(body.address, body.blockchain)) throw new Problem('invalid-request', `address is not a valid ${body.blockchain} address`);
  } else {
    if (!body.signerPublicKey) throw new Problem('invalid-request', 'signerPublicKey is required for an embedded wallet');
    if (body.address) throw new Problem('invalid-request', 'address is not allowed for an embedded wallet; the service assigns it');
    if (!isP256PublicKey(body.signerPublicKey)) throw new Problem('invalid-request', 'signerPublicKey is not a P-256 public key');
  }
}

export async function createV1Wallet(services: Services, caller: Caller, body: CreateWallet): Promise<V1WalletRow> {
  checkCustody(body);
  const { db } = services.storage;
  const customer = await v1Customer(services, caller, body.customerId);
  const now = services.clock.now().toISOString();
  const row: V1NewRow<V1WalletRow> = {
    id: randomUUID(),
    partner_id: caller.organization.id,
    customer_id: customer.id,
    address: body.custody === 'external' ? body.address! : newAddress(body.blockchain),
    blockchain: body.blockchain,
    custody: body.custody,
    signer_public_key: body.custody === 'embedded' ? body.signerPublicKey! : null,
    created_at: now,
    updated_at: now,
  };
  const wallets = v1WalletsRepository(db);
  if (await wallets.findByAddress(customer.id, row.blockchain, row.address)) throw duplicate();
  try {
    return await wallets.insert(row);
  } catch (error) {
    // Two registrations at once: the unique index keeps one.
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}

export async function getV1Wallet(services: Services, caller: Caller, id: string): Promise<V1WalletRow> {
  return ownedBy(await v1WalletsRepository(services.storage.db).find(id.toLowerCase()), caller, 'Wallet not found');
}
