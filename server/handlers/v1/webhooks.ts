/** v1 webhook subscriptions: apart from v2 ones, https only, v1 events only. */
import { pageMeta, v1Page, type V1PaginationBody } from '../../domain/pagination.ts';
import { webhooksRepository } from '../../storage/webhooks.ts';
import { createSubscription, deleteSubscription, getSubscription, presentSubscription } from '../../webhooks/subscriptions.ts';
import type { Handler } from '../types.ts';

type V1EventType = 'order_updated' | 'swap_updated' | 'customer_updated' | 'kyc_updated' | 'kyb_updated' | 'bank_account_updated';

export const v1CreateWebhook: Handler<'v1CreateWebhook'> = async ({ body, caller, services }) => {
  const row = await createSubscription(services, caller.organization.id, 'v1', body);
  return { status: 201, body: { ...presentSubscription(row), eventType: body.eventType, secret: row.secret } };
};

export const v1GetWebhook: Handler<'v1GetWebhook'> = async ({ params, caller, services }) => {
  const row = await getSubscription(services.storage.db, caller.organization.id, 'v1', params.id);
  return { status: 200, body: { ...presentSubscription(row), eventType: row.event_type as V1EventType } };
};

export const v1DeleteWebhook: Handler<'v1DeleteWebhook'> = async ({ params, caller, services }) => {
  await deleteSubscription(services.storage.db, caller.organization.id, 'v1', params.id);
  return { status: 204, body: undefined };
};

/** The pagination body applies with the query's `next` parameters over it; filters are checked, not applied. */
export const v1ListWebhooks: Handler<'v1ListWebhooks'> = async ({ body, query, caller, services }) => {
  const page = v1Page({
    ...(body as V1PaginationBody | undefined),
    ...(query.pageNumber !== undefined ? { pageNumber: query.pageNumber } : {}),
    ...(query.pageSize !== undefined ? { pageSize: query.pageSize } : {}),
  });
  const { items, total } = await webhooksRepository(services.storage.db).listSubscriptions(caller.organization.id, 'v1', page);
  const meta = pageMeta(page, total);
  const next = page.number + 1 < meta.totalPages ? `${services.config.baseUrl}/ramp/webhooks?pageNumber=${page.number + 1}&pageSize=${page.size}` : null;
  return { status: 200, body: { items: items.map((row) => ({ ...presentSubscription(row), eventType: row.event_type as V1EventType })), ...meta, next } };
};
