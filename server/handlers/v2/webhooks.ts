/** v2 webhook subscriptions and their deliveries; they belong to the key's organization. */
import { pageMeta, v2Page } from '../../shared/pagination.ts';
import { presentSubscription } from '../../features/webhooks/presenters.ts';
import { createSubscription, deleteSubscription, getSubscription, listDeliveries, listSubscriptions } from '../../features/webhooks/subscriptions.ts';
import type { Handler } from '../types.ts';

export const createWebhookSubscription: Handler<'createWebhookSubscription'> = async ({ body, caller, services }) => {
  const row = await createSubscription(services, caller.organization.id, 'v2', body);
  return { status: 201, body: { ...presentSubscription(row), secret: row.secret } };
};

export const listWebhookSubscriptions: Handler<'listWebhookSubscriptions'> = async ({ query, caller, services }) => {
  const page = v2Page(query);
  const { items, total } = await listSubscriptions(services, caller.organization.id, 'v2', page);
  return { status: 200, body: { items: items.map(presentSubscription), ...pageMeta(page, total) } };
};

export const getWebhookSubscription: Handler<'getWebhookSubscription'> = async ({ params, caller, services }) => {
  const row = await getSubscription(services, caller.organization.id, 'v2', params.id);
  return { status: 200, body: presentSubscription(row) };
};

export const deleteWebhookSubscription: Handler<'deleteWebhookSubscription'> = async ({ params, caller, services }) => {
  await deleteSubscription(services, caller.organization.id, 'v2', params.id);
  return { status: 204, body: undefined };
};

export const listWebhookDeliveries: Handler<'listWebhookDeliveries'> = async ({ params, query, caller, services }) => {
  const page = v2Page(query);
  const { items, total } = await listDeliveries(services, caller.organization.id, params.id, page, query.eventId);
  return { status: 200, body: { items, ...pageMeta(page, total) } };
};
