/**
 * v2 sandbox simulators (tag Sandbox in v2.yaml): deposits, orders, payment accounts, the
 * verification provider and webhook resends; and the sandbox console
 * (openapi/paths/v2/sandbox_console*.yaml) with the reads it is built on, the event feed and
 * deliveries in detail, and the request log. 403 `forbidden` in production.
 */
import { pageHeaders } from '../../http/pages.ts';
import { consoleAsset, consoleCsp, consoleManifest, consolePage } from '../../features/console/assets.ts';
import { readDeliveries, readEvents } from '../../features/console/useCases.ts';
import { readRequests } from '../../features/requestLog/useCases.ts';
import { assertSandbox } from '../../shared/environment.ts';
import { pageMeta, v2Page } from '../../shared/pagination.ts';
import { simulateDeposit as deposit, simulateOrder as move } from '../../features/orders/simulators.ts';
import { simulatePaymentAccount as setAccount } from '../../features/paymentAccounts/simulators.ts';
import { actFor } from '../../features/organizations/scope.ts';
import { presentKyb, presentKyc } from '../../features/verification/presenters.ts';
import { simulateKyb as decideKyb, simulateKyc as decideKyc, simulateKycErrors } from '../../features/verification/simulators.ts';
import { resendEvent } from '../../features/webhooks/subscriptions.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import type { Handler } from '../types.ts';

export const simulateDeposit: Handler<'simulateDeposit'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await deposit(services, organization, params.id, body ?? {}) };
};

export const simulateOrder: Handler<'simulateOrder'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await move(services, organization, params.id, body) };
};

export const simulatePaymentAccount: Handler<'simulatePaymentAccount'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await setAccount(services, organization, params.id, body) };
};

export const simulateKyc: Handler<'simulateKyc'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const errors = simulateKycErrors(body);
  if (errors.length > 0) throw validationError(errors);
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: presentKyc(await decideKyc(services, organization, body)) };
};

export const simulateKyb: Handler<'simulateKyb'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: presentKyb(await decideKyb(services, organization, body.status)) };
};

/** Re-sends a stored v2 event to the partner's current subscriptions. */
export const resendWebhookEvent: Handler<'resendWebhookEvent'> = async ({ params, caller, services }) => {
  return { status: 202, body: await resendEvent(services, caller.organization.id, params.eventId) };
};

export const getSandboxConsole: Handler<'getSandboxConsole'> = async () => {
  const manifest = await consoleManifest();
  if (!manifest) throw new Problem('service-unavailable', 'The sandbox console was not built; run npm run build:console.');
  return { status: 200, type: 'text/html', body: consolePage(manifest), headers: { ...pageHeaders(consoleCsp), 'X-Frame-Options': 'DENY' } };
};

export const getSandboxConsoleAsset: Handler<'getSandboxConsoleAsset'> = async ({ params }) => {
  const asset = await consoleAsset(params.asset);
  if (!asset) throw new Problem('not-found', `The console has no file ${params.asset}.`);
  return { status: 200, type: asset.type, body: asset.text, headers: { 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' } };
};

export const listSandboxEvents: Handler<'listSandboxEvents'> = async ({ query, caller, services }) => {
  const { size } = v2Page(query);
  const body = await readEvents(services, caller.organization, { after: query.after ?? 0, subjectId: query.subjectId, limit: size });
  return { status: 200, body };
};

export const listSandboxWebhookDeliveries: Handler<'listSandboxWebhookDeliveries'> = async ({ params, query, caller, services }) => {
  const page = v2Page(query);
  const { items, total } = await readDeliveries(services, caller.organization.id, params.id, page, query.eventId);
  return { status: 200, body: { items, ...pageMeta(page, total) } };
};

export const listSandboxRequests: Handler<'listSandboxRequests'> = async ({ query, caller, services }) => {
  const { status, operationId, organizationId, objectId, reads } = query;
  return { status: 200, body: await readRequests(services, caller, { status, operationId, organizationId, objectId, reads }, v2Page(query)) };
};
