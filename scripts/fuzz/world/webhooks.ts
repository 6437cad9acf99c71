/**
 * The world's first section and its last: webhook subscriptions (first, so every event the
 * world makes is delivered) with the sandbox console, the request log and the clock, and at
 * the end the events the subscriptions delivered.
 */
import { range, type Context, type Json } from './context.ts';

/** v2 subscriptions and v1 webhooks, the console's reads, the request log and the sandbox clock. */
export async function webhooks({ api, options, d, add, request }: Context) {
  // --- Webhook subscriptions first, so every event the world makes is delivered. ---
  const v2Types = ['orderUpdated', 'paymentAccountUpdated', 'kycUpdated', 'kybUpdated'];
  for (const eventType of v2Types) {
    add('webhook-subscriptions', (await api.post('/webhook_subscription', { url: `${options.receivers.v2}/v2/${eventType}`, eventType })).id);
  }
  for (const i of range(8)) {
    add('webhook-subscriptions-disposable', (await api.post('/webhook_subscription', { url: `${options.receivers.v2}/v2/disposable-${i}`, eventType: v2Types[i % 4] })).id);
  }
  const v1Types = ['order_updated', 'swap_updated', 'customer_updated', 'kyc_updated', 'kyb_updated', 'bank_account_updated'];
  for (const eventType of v1Types) {
    add('v1-webhooks', (await api.post('/ramp/webhook', { url: `${options.receivers.v1}/v1/${eventType}`, eventType })).id);
  }
  for (const i of range(6)) {
    add('v1-webhooks-disposable', (await api.post('/ramp/webhook', { url: `${options.receivers.v1}/v1/disposable-${i}`, eventType: v1Types[i] })).id);
  }
  const [subscription] = d['webhook-subscriptions']!;
  request('createWebhookSubscription', { body: { url: `${options.receivers.v2}/v2/example`, eventType: 'orderUpdated' } });
  request('listWebhookSubscriptions', {});
  request('getWebhookSubscription', { path: { id: subscription! } });
  request('listWebhookDeliveries', { path: { id: subscription! } });
  request('deleteWebhookSubscription', { path: { id: (await api.post('/webhook_subscription', { url: `${options.receivers.v2}/v2/example-delete`, eventType: 'kycUpdated' })).id } });
  // The sandbox console's reads: the event feed, a subscription's deliveries in detail, the
  // page and the files it names (named after their content, so read from the page).
  request('listSandboxEvents', {});
  request('listSandboxWebhookDeliveries', { path: { id: subscription! } });
  request('getSandboxConsole', {});
  request('getHealth', {});
  // The home page, then the API reference: its landing page and a surface's page.
  request('getHome', {});
  request('getDocumentation', {});
  request('getDocumentationPage', { path: { page: 'v2' } });
  request('getDocumentationWorkflow', { path: { workflow: 'v2Onramp' } });
  const consolePage = await (await fetch(`${options.base}/sandbox/console`)).text();
  const consoleFile = /\/sandbox\/console\/([^"'/]+\.js)/.exec(consolePage)?.[1];
  if (!consoleFile) throw new Error('world: the sandbox console page names no script (is the console built?)');
  request('getSandboxConsoleAsset', { path: { asset: consoleFile } });
  // The request log: all of it, and the refusals of one operation (its filters draw the
  // operations below and the organizations, which the world's requests act for).
  add('operation-ids', 'createWebhookSubscription', 'createQuote', 'createOrder', 'createPaymentAccount', 'simulateKyc');
  request('listSandboxRequests', {}, { query: { status: '4xx', operationId: 'createOrder' } });
  // The partner's sandbox clock. Its requests keep the world's timers where they are: the clock
  // keeps running, and one second passes (a quote stays firm five minutes, an unfunded order
  // an hour). The clock's paths come after every path whose request needs a firm quote or an
  // unfunded order, and Schemathesis (one worker) sends the examples in the document's order;
  // what later phases generate may move the clock up to a year at once, which leaves those
  // operations their refusals only (quote-expired, an order already canceled).
  request('getSandboxClock', {});
  request('setSandboxClock', { body: { frozen: false } });
  request('advanceSandboxClock', { body: { by: 'PT1S' } });
  // Isolated sandbox partners: one made by the example, and one made here that the example
  // deletes with the world's key, its maker's. Generated ones stop at the cap (409 conflict).
  request('createSandboxPartner', { body: { displayName: 'Fuzz partner' } });
  request('deleteSandboxPartner', { path: { partnerId: (await api.post('/sandbox/partners', { displayName: 'Fuzz partner to delete' })).id } });
  request('v1CreateWebhook', { body: { url: `${options.receivers.v1}/v1/example`, eventType: 'order_updated' } });
  request('v1ListWebhooks', { body: {} });
  request('v1GetWebhook', { path: { id: d['v1-webhooks']![0]! } });
  request('v1DeleteWebhook', { path: { id: (await api.post('/ramp/webhook', { url: `${options.receivers.v1}/v1/example-delete`, eventType: 'kyc_updated' })).id } });
}

/** The ids of the events the world's subscriptions delivered: `resendWebhookEvent`'s pool and request. */
export async function deliveredEvents({ api, d, add, examples, request }: Context) {
  // --- Delivered events: wait until the world's subscriptions have settled what it sent
  // (delivered, or failed after their attempts on a machine too busy to answer in time).
  const deadline = Date.now() + 300_000;
  for (const subscription of d['webhook-subscriptions']!) {
    for (;;) {
      const items = (await api.get(`/webhook_subscription/${subscription}/deliveries?pageSize=100`)).items as Json[];
      const delivered = items.filter((delivery) => delivery.status === 'delivered');
      if (delivered.length > 0 && items.every((delivery) => delivery.status !== 'pending')) {
        for (const delivery of delivered) add('v2-events', delivery.eventId);
        // A stored event can be sent again any number of times.
        if (!examples.resendWebhookEvent) request('resendWebhookEvent', { path: { eventId: delivered[0]!.eventId } });
        break;
      }
      if (Date.now() > deadline) throw new Error(`world: the deliveries of subscription ${subscription} are still pending after 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
