/**
 * Orders (v2): made from a quote, then moved through the order state machine
 * (orderMachine.ts) by deposits, authorizations, claims, cancellations, the sandbox
 * simulators and the service's own jobs. Every change runs in one transaction that locks the
 * order, checks the move, writes it and, when the status or the funding instructions changed,
 * records `orderUpdated` with the order exactly as GET shows it. Creation sends no event.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { components } from '../../../generated/types/ramp.ts';
import type { Caller } from '../organizations/scope.ts';
import { Problem } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { Tx } from '../../storage/database.ts';
import { orderBody, orderBodyTag, presentOrder } from './presenters.ts';
import { StoredBody, StoredPage } from '../../shared/storedBodies.ts';
import { ordersRepository, type NewOrderRow, type OrderRow, type OrderView } from './repository.ts';
import { organizationsRepository, type OrganizationRow } from '../organizations/repository.ts';
import { paymentAccountsRepository } from '../paymentAccounts/repository.ts';
import { quotesRepository } from '../quotes/repository.ts';
import { walletsRepository } from '../wallets/repository.ts';
import { changeState } from '../stateChange.ts';
import { base58, depositBank, evmAddress, newDepositClabe } from '../../shared/world.ts';
import { transition, type OrderAction } from './machine.ts';
import { isApproved } from '../organizations/rules.ts';
import { pageMeta, type PageRequest } from '../../shared/pagination.ts';
import { assertUsable } from '../paymentAccounts/useCases.ts';
import { actFor } from '../organizations/scope.ts';
import { checkSignature } from '../../shared/signatures.ts';

type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type FundingInstructions = Schemas['FundingInstructions'];
export type ClaimPreparation = Schemas['ClaimPreparation'];
type Blockchain = Schemas['Blockchain'];

/** How long a new order waits for its source funds before it is canceled. */
export const fundingWindowMs = 60 * 60_000;
/** How long a funded onramp takes to deliver on its own after a simulated deposit. */
export const settleDelayMs = 1000;
/** How long a prepared claim transaction stays valid on-chain. */
export const claimLifetimeMs = 10 * 60_000;

const defaultChain: Blockchain = 'solana';

/** A fresh deposit address of the service on a chain. */
const depositAddress = (chain: Blockchain) => (chain === 'solana' ? base58(randomBytes(32)) : evmAddress());

/** Where the source funds of an order go: a SPEI CLABE of its own for fiat, an address for tokens. */
export function fundingInstructions(row: Pick<OrderRow, 'type' | 'source_amount' | 'source_asset' | 'blockchain'>, deadline: Date): FundingInstructions {
  // Typed by the schema of its `type`: the contract's FundingDestination is one object with
  // both types' fields optional, so only the per-type schemas make tsc require each one's.
  const destination: Schemas['SpeiFundingDestination'] | Schemas['BlockchainFundingDestination'] =
    row.type === 'onramp'
      ? {
          type: 'spei',
          clabe: newDepositClabe(),
          bankName: depositBank.name,
          beneficiaryName: depositBank.beneficiary,
          reference: String(randomInt(1, 10_000_000)),
        }
      : { type: 'blockchain', blockchain: row.blockchain ?? defaultChain, address: depositAddress(row.blockchain ?? defaultChain) };
  return { destination, amount: row.source_amount, asset: row.source_asset, expiresAt: deadline.toISOString() };
}

/** Turns an unexpired quote into its order; a retry with the same quote returns that order (`created` false). */
export async function createOrder(services: Services, organization: OrganizationRow, quoteId: string): Promise<{ created: boolean; order: StoredBody<'Order'> }> {
  const { db } = services.storage;
  const now = services.clock.now();
  const orders = ordersRepository(db);
  const quote = await quotesRepository(db).find(organization.id, quoteId);
  if (!quote) throw new Problem('quote-expired', `Quote ${quoteId} does not exist; request a new one.`);
  // A retry answers the order its quote already has, whatever has changed since (the quote
  // expired, the organization or account no longer approved): looked for when a check refuses
  // the order, or when the insert finds it, not before every creation.
  let destinationClabe: string | undefined;
  try {
    if (quote.expires_at <= now.toISOString()) throw new Problem('quote-expired', `Quote ${quoteId} expired at ${quote.expires_at}; request a new one.`);
    if (!isApproved(organization)) throw new Problem('organization-not-approved', `Organization ${organization.id} is not approved.`);
    if (quote.type === 'offramp') {
      const account = await paymentAccountsRepository(db).find(organization.id, quote.payment_account_id!);
      if (!account) throw new Problem('payment-account-not-ready', `Payment account ${quote.payment_account_id} is no longer registered.`);
      assertUsable(account, quote.rail as 'spei', 'destination');
      destinationClabe = account.clabe;
    }
  } catch (refusal) {
    if (!(refusal instanceof Problem)) throw refusal;
    const already = await orders.findByQuote(quote.id);
    if (already) return { created: false, order: storedOrder(services, already) };
    throw refusal;
  }
  const wallet = quote.wallet_address !== null ? await walletsRepository(db).findByAddress(organization.id, quote.wallet_address) : undefined;
  const deadline = new Date(now.getTime() + fundingWindowMs);
  const row: NewOrderRow = {
    id: randomUUID(),
    organization_id: organization.id,
    quote_id: quote.id,
    type: quote.type,
    status: 'created',
    source_asset: quote.source_asset,
    target_asset: quote.target_asset,
    source_amount: quote.source_amount,
    target_amount: quote.target_amount,
    payment_account_id: quote.payment_account_id,
    wallet_address: quote.wallet_address,
    blockchain: wallet?.blockchain ?? defaultChain,
    funding_instructions: null,
    funding_deadline: deadline.toISOString(),
    authorization_id: null,
    authorization_message: null,
    authorization_expires_at: null,
    failure_code: null,
    failure_message: null,
    claim: null,
    settle_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  // Tokens spent from an embedded wallet move only once its owner signs; other sources are sent to us.
  if (quote.type !== 'onramp' && wallet?.custody === 'embedded') {
    row.authorization_id = randomUUID();
    row.authorization_expires_at = deadline.toISOString();
    const receive = quote.type === 'offramp' ? `${quote.target_amount} ${quote.target_asset} at CLABE ${destinationClabe}` : `${quote.target_amount} ${quote.target_asset} at ${quote.wallet_address}`;
    row.authorization_message = `Authorize order ${row.id}: send ${quote.source_amount} ${quote.source_asset} from ${quote.wallet_address} to receive ${receive}. Authorization ${row.authorization_id} expires ${row.authorization_expires_at}.`;
  } else {
    row.funding_instructions = JSON.stringify(fundingInstructions(row, deadline));
  }
  const stored = await orders.insert(row, organization, (r) => orderBody(services.contract.document, r));
  if (stored) return { created: true, order: storedOrder(services, stored) };
  // The quote has its order (a retry, or a request that won the unique constraint and has committed): read it.
  const winner = await orders.findByQuote(quote.id);
  if (!winner) throw new Problem('conflict', `An order for quote ${quoteId} is being created; retry to read it.`);
  return { created: false, order: storedOrder(services, winner) };
}

/**
 * An order's answer (shared/storedBodies.ts): its stored body, or, when another contract or
 * presenter stored it (or it was stored before bodies were), the body made again from its columns.
 */
function storedOrder(services: Services, row: OrderView & Pick<OrderRow, 'body' | 'body_tag'>): StoredBody<'Order'> {
  const { document } = services.contract;
  return new StoredBody<'Order'>('Order', isCurrent(services, row) ? row.body! : orderBody(document, row).body);
}

const isCurrent = (services: Services, row: Pick<OrderRow, 'body' | 'body_tag'>) => row.body !== null && row.body_tag === orderBodyTag(services.contract.document);

export async function getOrder(services: Services, organization: OrganizationRow, id: string): Promise<StoredBody<'Order'>> {
  const orders = ordersRepository(services.storage.db);
  const listed = await orders.findBody(organization.id, id);
  if (!listed) throw new Problem('not-found', `Order ${id} was not found.`);
  if (isCurrent(services, listed)) return new StoredBody<'Order'>('Order', listed.body!);
  const row = await orders.find(organization.id, id);
  if (!row) throw new Problem('not-found', `Order ${id} was not found.`);
  return new StoredBody<'Order'>('Order', orderBody(services.contract.document, row).body);
}

/** Newest first, across the caller and its customers, or one organization it can act for. */
export async function listOrders(services: Services, caller: Caller, page: PageRequest, organizationId?: string) {
  const { db } = services.storage;
  const scope = organizationId ? { organizationId: (await actFor(services, caller, organizationId)).id } : { partnerId: caller.organization.id, parentId: caller.organization.parent_id };
  const repository = ordersRepository(db);
  const { items, total } = await repository.page(scope, page);
  // Bodies stored by another contract or presenter (or before bodies were stored) are presented again.
  const stale = items.filter((o) => !isCurrent(services, o)).map((o) => o.id);
  const fresh = new Map(stale.length === 0 ? [] : (await repository.views(stale)).map((row) => [row.id, orderBody(services.contract.document, row).body]));
  const bodies = items.map((o) => {
    const body = fresh.get(o.id) ?? o.body;
    if (body === null) throw new Error(`order ${o.id} of a page read was not found again`);
    return body;
  });
  return new StoredPage<'Order'>('Order', bodies, pageMeta(page, total));
}

export type Changes = Partial<Omit<OrderRow, 'id' | 'organization_id' | 'quote_id' | 'created_at' | 'updated_at'>>;

/**
 * What leaving a status clears: a pending authorization, a due settlement, a claim. An
 * authorization that expired stays with the order its expiry canceled (`expireFunding`, at the
 * same instant): a signature arriving later is told the authorization expired (authorizeOrder),
 * not that nothing needs signing. The order no longer shows it (presenters.ts: only while created).
 */
export function statusChange(row: OrderRow, action: OrderAction, extra: Changes = {}): Changes {
  const status = transition(row.status, action);
  return {
    status,
    ...(action === 'expireFunding' ? {} : { authorization_id: null, authorization_message: null, authorization_expires_at: null }),
    settle_at: null,
    claim: null,
    ...extra,
  };
}

/**
 * One change of an order (features/stateChange.ts): locked, `decide` refuses or describes the
 * change (undefined: nothing to do), written guarded by the status it read, with
 * `orderUpdated` when the status or the funding instructions changed.
 */
export async function changeOrder(
  services: Services,
  organizationId: string,
  id: string,
  decide: (row: OrderRow, now: Date, tx: Tx) => Changes | undefined | Promise<Changes | undefined>,
): Promise<OrderRow> {
  const { storage } = services;
  return changeState<OrderRow, Changes>(services, {
    async lock(tx) {
      const row = await ordersRepository(tx, storage.engine).findForUpdate(organizationId, id);
      if (!row) throw new Problem('not-found', `Order ${id} was not found.`);
      return row;
    },
    decide,
    async write(tx, row, changes, now) {
      // updatedAt moves only with what the order shows (a prepared claim is not part of it).
      const merged: OrderRow = { ...row, ...changes };
      const visible = JSON.stringify(presentOrder(merged)) !== JSON.stringify(presentOrder(row));
      const unstored: OrderRow = { ...merged, updated_at: visible ? now.toISOString() : row.updated_at };
      const body = orderBody(services.contract.document, unstored);
      const after: OrderRow = { ...unstored, ...body };
      if (!(await ordersRepository(tx).updateFrom(row.id, row.status, { ...changes, updated_at: after.updated_at, ...body }))) {
        throw new Problem('conflict', `Order ${id} changed while this request ran; read it again.`);
      }
      if (after.status === row.status && after.funding_instructions === row.funding_instructions) return { row: after, events: [] };
      const organization = (await organizationsRepository(tx).find(row.organization_id))!;
      return { row: after, events: [{ type: 'orderUpdated', organization, object: { order: presentOrder(after) } }] };
    },
  });
}

/** Cancels a `created` order; an already canceled one is returned as it is. */
export async function cancelOrder(services: Services, organization: OrganizationRow, id: string): Promise<StoredBody<'Order'>> {
  const row = await changeOrder(services, organization.id, id, (order) => {
    if (order.status === 'canceled') return undefined;
    if (order.status !== 'created') throw new Problem('order-not-cancelable', `Order ${id} is ${order.status}; only a created order can be canceled.`);
    return statusChange(order, 'cancel');
  });
  return storedOrder(services, row);
}

/** The claim of a claimable order: the same preparation until it expires, then a fresh one. */
export async function claimOrder(services: Services, organization: OrganizationRow, id: string): Promise<ClaimPreparation> {
  const row = await changeOrder(services, organization.id, id, (order, now) => {
    if (order.status !== 'claimable') throw new Problem('order-not-claimable', `Order ${id} is ${order.status}; only a claimable order can be claimed.`);
    const current = order.claim !== null ? (JSON.parse(order.claim) as ClaimPreparation) : undefined;
    if (current && current.expiresAt > now.toISOString()) return undefined;
    const claim: ClaimPreparation = {
      orderId: order.id,
      claimId: randomUUID(),
      blockchain: order.blockchain ?? defaultChain,
      transaction: randomBytes(180).toString('base64'),
      expiresAt: new Date(now.getTime() + claimLifetimeMs).toISOString(),
    };
    return { claim: JSON.stringify(claim) };
  });
  return JSON.parse(row.claim!) as ClaimPreparation;
}

/** The embedded wallet's owner signs the pending authorization; the tokens then leave the wallet. */
export async function authorizeOrder(
  services: Services,
  organization: OrganizationRow,
  id: string,
  request: { authorizationId: string; signature: string },
): Promise<StoredBody<'Order'>> {
  const row = await changeOrder(services, organization.id, id, async (order, now, tx) => {
    // A late signature is told its authorization expired, whether or not the order has been canceled at that expiry yet.
    if (order.authorization_id !== null && order.authorization_expires_at! <= now.toISOString()) {
      throw new Problem('authorization-expired', `Authorization ${order.authorization_id} of order ${id} expired at ${order.authorization_expires_at}.`);
    }
    if (order.status !== 'created' || order.authorization_id === null) throw new Problem('authorization-not-required', `Order ${id} has no pending authorization.`);
    if (request.authorizationId.toLowerCase() !== order.authorization_id) {
      throw new Problem('authorization-expired', `Authorization ${request.authorizationId} is not the current authorization of order ${id}; read the order again.`);
    }
    const wallet = await walletsRepository(tx).findByAddress(order.organization_id, order.wallet_address!);
    const check = wallet?.signer_public_key ? checkSignature(wallet.signer_public_key, order.authorization_message!, request.signature) : 'does-not-verify';
    if (check === 'not-hex') throw new Problem('invalid-signature', 'The signature is not hex; send DER or r||s in hex.');
    if (check !== 'valid') throw new Problem('invalid-signature', "The signature does not verify over the authorization message with the wallet's signerPublicKey.");
    return statusChange(order, 'authorize');
  });
  return storedOrder(services, row);
}
