/** The sandbox console (openapi/paths/v2/sandbox_console*.yaml) and the reads it is built on. */
import { consoleAsset, consoleCsp, consoleManifest, consolePage } from '../../features/console/assets.ts';
import { readDeliveries, readEvents } from '../../features/console/repository.ts';
import { pageMeta, v2Page } from '../../domain/pagination.ts';
import { Problem } from '../../problems.ts';
import { pageHeaders } from '../auth/pages.ts';
import type { Handler } from '../types.ts';

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
  const body = await readEvents(services.storage.db, caller.organization, { after: query.after ?? 0, subjectId: query.subjectId, limit: size });
  return { status: 200, body };
};

export const listSandboxWebhookDeliveries: Handler<'listSandboxWebhookDeliveries'> = async ({ params, query, caller, services }) => {
  const page = v2Page(query);
  const { items, total } = await readDeliveries(services.storage.db, caller.organization.id, params.id, page);
  return { status: 200, body: { items, ...pageMeta(page, total) } };
};
