/**
 * The API reference (tag Documentation in v2.yaml): the landing page, a page per surface,
 * the guides and a page per workflow, public, in the sandbox and in production alike, under
 * the console's security headers with the policy Redoc needs (features/docs/pages.ts).
 */
import { pageHeaders } from '../../http/pages.ts';
import { docsIndex, docsPage, docsWorkflow, type DocsPage } from '../../features/docs/pages.ts';
import { Problem } from '../../shared/problems.ts';
import type { Handler } from '../types.ts';

function reply(page: DocsPage | undefined) {
  if (!page) throw new Problem('service-unavailable', 'The documentation was not generated; run npm run generate.');
  return { status: 200 as const, type: 'text/html', body: page.html, headers: { ...pageHeaders(page.csp), 'X-Frame-Options': 'DENY' } };
}

export const getDocumentation: Handler<'getDocumentation'> = async () => reply(await docsIndex());

export const getDocumentationPage: Handler<'getDocumentationPage'> = async ({ params }) => reply(await docsPage(params.page));

export const getDocumentationWorkflow: Handler<'getDocumentationWorkflow'> = async ({ params }) => reply(await docsWorkflow(params.workflow));
