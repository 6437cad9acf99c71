/**
 * The one error handler: every failure, ours or the validator's or the body parser's, is
 * rendered here in the format of the surface it happened on (seed part 7):
 * v2 problem details, v1 and lookup `{"error": "..."}`, OAuth errors on /auth.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Contract } from './contract.ts';
import { OAuthError, Problem, type FieldError } from './problems.ts';

export type Surface = 'v1' | 'v2' | 'lookup' | 'auth';

export function surfaceOf(path: string): Surface {
  if (path.startsWith('/ramp/') || path === '/ramp' || path.startsWith('/sandbox/ramp/')) return 'v1';
  if (path.startsWith('/lookup/')) return 'lookup';
  if (path.startsWith('/auth/')) return 'auth';
  return 'v2';
}

const internalDetail = 'An unexpected error occurred. It has been logged; retry later.';

interface ValidatorError {
  status: number;
  message?: string;
  path?: string;
  errors?: { path: string; message: string; errorCode?: string }[];
  headers?: Record<string, string>;
  type?: string;
}

/** Turns a validator or body-parser error into our problem; undefined when it is neither. */
export function toProblem(error: unknown): Problem | undefined {
  if (error instanceof Problem) return error;
  const e = error as ValidatorError;
  if (!e || typeof e !== 'object' || typeof e.status !== 'number') return undefined;
  if (e.type === 'entity.parse.failed') return new Problem('invalid-request', `The body is not valid JSON: ${e.message ?? ''}`.trim());
  if (e.type === 'entity.too.large' || e.status === 413) return new Problem('payload-too-large', 'The request body is too large.');
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') return new Problem('unsupported-media-type', e.message ?? 'Unsupported encoding.');
  if (e.status === 415) return new Problem('unsupported-media-type', e.message ?? 'Unsupported media type.');
  if (e.status === 405) {
    const allow = e.headers?.Allow ?? e.headers?.allow;
    return new Problem('method-not-allowed', e.message ?? 'Method not allowed.', {}, allow ? { Allow: allow } : {});
  }
  if (e.status === 401) return new Problem('unauthorized', e.message && e.message !== 'unauthorized' ? e.message : 'Invalid API key.');
  if (e.status === 400) {
    const errors = e.errors ?? [];
    const inBody = errors.filter((x) => x.path?.startsWith('/body'));
    const badEnum = errors.some((x) => x.errorCode?.startsWith('enum.'));
    if (inBody.length > 0 && inBody.length === errors.length && !badEnum) {
      const fields: FieldError[] = inBody.map((x) => ({ pointer: x.path.slice('/body'.length) || '/', detail: x.message }));
      return new Problem('validation-error', `The request has ${fields.length} invalid field${fields.length === 1 ? '' : 's'}.`, { errors: fields });
    }
    const first = errors[0];
    const where = first?.path?.replace(/^\/(query|path|params|headers)\//, '$1 parameter ').replace(/^\/body/, 'body');
    return new Problem('invalid-request', first ? `${where}: ${first.message}` : (e.message ?? 'Invalid request.'));
  }
  return undefined;
}

export function errorHandler(contract: Contract, logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return res.end();
    const e = error as ValidatorError;
    // A path that matches no endpoint is a plain 404 with an empty body (seed part 7).
    if (e?.status === 404 && !(error instanceof Problem) && typeof e.message === 'string' && /not found/i.test(e.message)) {
      return res.status(404).end();
    }
    const surface = surfaceOf(req.path);
    if (error instanceof OAuthError) return renderOAuth(res, req, error);
    let problem = toProblem(error);
    const instance = `urn:uuid:${randomUUID()}`;
    if (!problem) {
      logger.error({ err: error, instance, method: req.method, path: req.path }, 'internal error');
      problem = new Problem('internal-error', internalDetail);
    } else if (problem.slug === 'internal-error') {
      logger.error({ err: error, instance, method: req.method, path: req.path }, 'internal error');
    }
    const type = contract.problems.get(problem.slug);
    if (!type) throw new Error(`problem slug ${problem.slug} is not in the contract`);
    res.set(problem.headers);
    if (surface === 'auth') {
      const oauth = problem.slug === 'internal-error' || problem.slug === 'service-unavailable' ? 'server_error' : 'invalid_request';
      return res.status(type.status).json({ error: oauth, error_description: problem.detail });
    }
    if (surface !== 'v2') return res.status(type.status).json({ error: problem.detail });
    res.status(type.status).type('application/problem+json').send(
      JSON.stringify({ type: type.type, title: type.title, status: type.status, detail: problem.detail, instance, ...problem.extra }),
    );
  };
}

function renderOAuth(res: Response, req: Request, error: OAuthError) {
  if (req.path === '/auth/launch') {
    res.status(400).type('text/html').send(launchErrorPage(error));
    return;
  }
  res.status(400).set('Cache-Control', 'no-store').json({ error: error.error, error_description: error.description });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function launchErrorPage(error: OAuthError) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in failed</title></head><body><h1>Sign-in failed</h1><p><code id="error">${escapeHtml(error.error)}</code></p><p id="error_description">${escapeHtml(error.description)}</p></body></html>`;
}
