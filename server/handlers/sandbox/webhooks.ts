/** Sandbox: re-send a stored v2 event to the partner's current subscriptions. */
import { resendEvent } from '../../webhooks/subscriptions.ts';
import type { Handler } from '../types.ts';

export const resendWebhookEvent: Handler<'resendWebhookEvent'> = async ({ params, caller, services }) => {
  return { status: 202, body: await resendEvent(services, caller.organization.id, params.eventId) };
};
