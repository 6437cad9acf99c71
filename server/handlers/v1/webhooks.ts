/** v1 webhook subscriptions: apart from v2 ones, https only, v1 events only. */
import { v1Envelope, v1ListRequest } from '../../features/v1/common.ts';
import { presentV1Subscription } from '../../features/webhooks/presenters.ts';
import { createSubscription, deleteSubscription, getSubscription, listSubscriptions } from '../../features/webhooks/subscriptions.ts';
import type { V1PaginationBody } from '../../shared/pagination.ts';
import type { Handler } from '../types.ts';

export const v1CreateWebhook: Handler<'v1CreateWebhook'> = async ({ body, caller, services }) => {
  const row = await createSubscription(services, caller.organization.id, 'v1', body);
  return { status: 201, body: { ...presentV1Subscription(row), secret: row.secret } };
};

export const v1GetWebhook: Handler<'v1GetWebhook'> = async ({ params, caller, services }) => {
  const row = await getSubscription(services, caller.organization.id, 'v1', params.id);
  return { status: 200, body: presentV1Subscription(row) };
};

export const v1DeleteWebhook: Handler<'v1DeleteWebhook'> = async ({ params, caller, services }) => {
  await deleteSubscription(services, caller.organization.id, 'v1', params.id);
  return { status: 204, body: undefined };
};

/** The pagination body applies with the query's `next` parameters over it; filters are checked, not applied. */
export const v1ListWebhooks: Handler<'v1ListWebhooks'> = async ({ body, query, caller, services }) => {
  const page = v1ListRequest(body as V1PaginationBody | undefined, query);
  const { items, total } = await listSubscriptions(services, caller.organization.id, 'v1', page);
  return { status: 200, body: v1Envelope(services.config, '/ramp/webhooks', page, items.map(presentV1Subscription), total) };
};
