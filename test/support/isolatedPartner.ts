/**
 * One isolated sandbox partner's run (issue 35, item 1): what a partner's CI does with the
 * partner `createSandboxPartner` made for it, through the typed client only. A v1 customer
 * approved by the KYC simulator, a ready payment account, an onramp quote and order, a
 * deposit, the partner's own clock frozen and advanced (which completes the order), and a v2
 * `orderUpdated` subscription whose signed deliveries reach `receiver` under the partner's
 * own path. Answers what it made, so a test can check that no other partner sees any of it.
 */
import assert from 'node:assert/strict';
import { verifyWebhook, type SandboxPartner } from '../../client/index.ts';
import type { Receiver } from './webhooks.ts';
import { expectStatus } from './api.ts';
import { customerClabe, solanaAddress } from './fixtures.ts';
import { eventually } from './wait.ts';

export interface IsolatedRun {
  partnerId: string;
  customerId: string;
  accountId: string;
  orderId: string;
  subscriptionId: string;
  /** The receiver's path of this partner's deliveries. */
  webhookPath: string;
  /** Where the partner froze its clock, how far it advanced it, and where it stands after. */
  frozenAt: string;
  advancedBy: string;
  clockNow: string;
}

/** Runs the flow; `days` is how far this partner advances its clock, so each partner's clock ends somewhere of its own. */
export async function runIsolatedFlow(partner: SandboxPartner, receiver: Receiver, days: number): Promise<IsolatedRun> {
  const api = partner.client;
  const webhookPath = `/partner/${partner.id}`;
  const subscription = expectStatus(await api.POST('/webhook_subscription', { body: { url: `${receiver.url}${webhookPath}`, eventType: 'orderUpdated' } }), 201);
  const customerId = expectStatus(await api.POST('/ramp/organization', { body: { displayName: 'María Gómez Martínez', type: 'personal' } }), 201).organizationId;
  const params = { path: { organizationId: customerId } };
  expectStatus(await api.POST('/sandbox/organization/{organizationId}/kyc', { params, body: { status: 'approved' } }), 200);
  const registered = expectStatus(await api.POST('/organization/{organizationId}/payment_account', {
    params,
    body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: customerClabe() }, registrationInfo: { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' } },
  }), 201);
  expectStatus(await api.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', {
    params: { path: { organizationId: customerId, id: registered.id } },
    body: { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' },
  }), 200);
  // Frozen before the order: nothing of it moves until this partner advances its own clock.
  const frozen = expectStatus(await api.PUT('/sandbox/clock', { body: { frozen: true } }), 200);
  const { quoteId } = expectStatus(await api.POST('/organization/{organizationId}/quote', {
    params, body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: solanaAddress() },
  }), 201);
  const created = expectStatus(await api.POST('/organization/{organizationId}/order', { params, body: { quoteId } }), 201);
  const funded = expectStatus(await api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { params: { path: { organizationId: customerId, id: created.id } }, body: {} }), 200);
  assert.equal(funded.status, 'funded');
  const advancedBy = `P${days}D`;
  const advanced = expectStatus(await api.POST('/sandbox/clock/advance', { body: { by: advancedBy } }), 200);
  assert.equal(advanced.counts.orderCompleted, 1, 'the advance completes this partner\'s deposited onramp, and no other partner\'s');
  const completed = expectStatus(await api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: customerId, id: created.id } } }), 200);
  assert.equal(completed.status, 'completed');
  await eventually(async () => {
    for (const delivery of receiver.to(webhookPath)) {
      const event = await verifyWebhook({ body: delivery.raw, signature: delivery.headers['x-signature'], secret: subscription.secret! });
      if ('order' in event && event.order.id === created.id && event.order.status === 'completed') return true;
    }
    return false;
  }, undefined, `partner ${partner.id}'s signed orderUpdated (completed)`);
  return {
    partnerId: partner.id, customerId, accountId: registered.id, orderId: created.id, subscriptionId: subscription.id, webhookPath,
    frozenAt: frozen.now, advancedBy, clockNow: advanced.clock.now,
  };
}
