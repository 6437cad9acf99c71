/**
 * The one error handler: every failure, ours or the validator's or the body parser's, is
 * rendered here in the format of the surface it happened on (each document's Errors section):
 * v2 problem details, v1 and lookup `{"error": "..."}`, OAuth errors on /auth.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from 'pino';
import { surfaceOf, type Contract, type ProblemType, type Surface } from '../shared/contract.ts';
import { invalidRequestPage, launchErrorPage, pageHeaders, unavailablePage, type OAuthUnavailableCode } from './pages.ts';
import { HtmlPageError, OAuthError, Problem, type FieldError } from '../shared/problems.ts';
import { bodyLimitBytes } from '../shared/requestLimits.ts';
import { retryAfterSeconds, type DatabaseHealth } from '../storage/health.ts';

/** On a request whose failure was wrapped by the validator: the error to log. */
export const internalCause = Symbol('internalCause');

/**
 * The error handler's own answer goes through the response validator like any other (the
 * operation documents its errors). The validator reports a refusal to the middleware chain
 * that installed it, whose Express layer is long past: Express would answer its HTML error
 * page, stack included. While the error handler answers, the chain hands a refusal here
 * instead (`refusedWhileAnswering`), and the handler answers the internal error.
 */
const answering = Symbol('answering');
type Answering = Request & { [answering]?: { refusal?: unknown } };

/** True when `error` is the refusal of an answer the error handler is making: it is kept for it. */
export function refusedWhileAnswering(req: Request, error: unknown): boolean {
  const state = (req as Answering)[answering];
  if (!state) return false;
  state.refusal ??= error;
  return true;
}

const maxListedFields = 50;
const internalDetail = 'An unexpected error occurred. It has been logged; retry later.';
/** RFC 6749's code for a sign-in the service cannot complete now (OAuthUnavailableError). */
const temporarilyUnavailable: OAuthUnavailableCode = 'temporarily_unavailable';

interface ValidatorError {
  status: number;
  message?: string;
  path?: string;
  errors?: { path: string; message: string; errorCode?: string }[];
  headers?: Record<string, string>;
  type?: string;
}

/** What a refusal names of its request. */
export interface RefusedRequest {
  method: string;
  path: string;
  headers: { 'content-type'?: string | undefined };
  /** The operation the validator matched, with the media types its body takes. */
  openapi?: { schema?: { requestBody?: { content?: Record<string, unknown> } } };
}

/** Turns a validator or body-parser error into our problem; undefined when it is neither. */
export function toProblem(error: unknown, req: RefusedRequest): Problem | undefined {
  if (error instanceof Problem) return error;
  const e = error as ValidatorError;
  if (!e || typeof e !== 'object' || typeof e.status !== 'number') return undefined;
  if (e.type === 'entity.parse.failed') return new Problem('invalid-request', `The body is not valid JSON: ${e.message ?? ''}`.trim());
  if (e.type === 'entity.too.large' || e.status === 413) return new Problem('payload-too-large', `The request body exceeds ${bodyLimitBytes / 1024} KiB.`);
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') return new Problem('unsupported-media-type', e.message ?? 'Unsupported encoding.');
  if (e.status === 415) {
    // What to send is what the operation documents (sign-in words its own answer: oauthErrorOf).
    const type = req.headers['content-type']?.split(';')[0]?.trim().slice(0, 100);
    const taken = Object.keys(req.openapi?.schema?.requestBody?.content ?? {});
    const send = taken.length > 0 ? `; send ${taken.join(' or ')}` : '';
    return new Problem('unsupported-media-type', `${type ? `Content-Type ${type}` : 'A body without a Content-Type'} is not accepted${send}.`);
  }
  if (e.status === 405) {
    const allow = e.headers?.Allow ?? e.headers?.allow;
    // The path as sent, cut: a refusal does not echo a long one back whole.
    const path = req.path.length > 200 ? `${req.path.slice(0, 200)}…` : req.path;
    return new Problem('method-not-allowed', `${req.method} is not allowed on ${path}.`, {}, allow ? { Allow: allow } : {});
  }
  // The validator checks the header's presence before our handler sees the request.
  if (e.status === 401 && /header required/.test(e.message ?? '')) return new Problem('unauthorized', 'The Authorization header is missing; send the raw API key.');
  if (e.status === 401) return new Problem('unauthorized', e.message && e.message !== 'unauthorized' ? e.message : 'Invalid API key.');
  if (e.status === 400) {
    // A body's `if`/`then` (WalletRequest, the sign-in bodies) checks a field again in the branch
    // that applies: the branch's failure says nothing the field's own error does not, and a
    // field's error is told once.
    const told = new Set<string>();
    const errors = (e.errors ?? []).filter((x) => {
      const key = `${x.path} ${x.message}`;
      if (x.errorCode === 'if.openapi.validation' || told.has(key)) return false;
      told.add(key);
      return true;
    });
    const inBody = errors.filter((x) => x.path?.startsWith('/body'));
    const badEnum = errors.some((x) => x.errorCode?.startsWith('enum.'));
    if (inBody.length > 0 && inBody.length === errors.length && !badEnum) {
      // The first fields only: a 60 kB array of wrong items must not make a multi-megabyte answer.
      const fields: FieldError[] = inBody.slice(0, maxListedFields).map((x) => ({ pointer: x.path.slice('/body'.length) || '/', detail: x.message }));
      const listed = inBody.length > maxListedFields ? ` (the first ${maxListedFields} are listed)` : '';
      return new Problem('validation-error', `The request has ${inBody.length} invalid field${inBody.length === 1 ? '' : 's'}${listed}.`, { errors: fields });
    }
    const first = errors[0];
    const where = first?.path?.replace(/^\/params\//, '/path/').replace(/^\/(query|path|headers)\//, '$1 parameter ').replace(/^\/body/, 'body');
    return new Problem('invalid-request', first ? `${where}: ${first.message}` : (e.message ?? 'Invalid request.'));
  }
  return undefined;
}

/**
 * The one-line message of the `{"error": ...}` formats (v1, lookup): a refused field says
 * which, e.g. `filters.fromDate is required`, `pageNumber must be >= 0`.
 */
export function plainMessage(problem: Problem): string {
  const errors = problem.extra.errors as FieldError[] | undefined;
  if (problem.slug !== 'validation-error' || !errors?.length) return problem.detail;
  const field = (pointer: string) => pointer.split('/').filter(Boolean).join('.');
  return errors
    .map(({ pointer, detail }) => {
      // The validator points at the missing field itself.
      if (/^must have required property /.test(detail)) return `${field(pointer)} is required`;
      return `${field(pointer) || 'body'} ${detail}`;
    })
    .join('; ');
}

/**
 * `health` tells a database outage from any other failure (storage/health.ts): an outage is
 * the surface's documented 503 with `Retry-After`, logged once by storage, not per request.
 */
export function errorHandler(contract: Contract, logger: Logger, health: Pick<DatabaseHealth, 'failed'>): ErrorRequestHandler {
  // The signed-in app pages (tag `App pages`) answer as pages, their refused requests too.
  const appPages = new Set(contract.operations.filter((o) => contract.document.paths[o.path][o.method].tags?.includes('App pages')).map((o) => o.path));
  const internalError = () => new Problem('internal-error', internalDetail);
  const unavailable = () =>
    new Problem('service-unavailable', 'The database is unavailable for the moment; retry after Retry-After seconds.', {}, { 'Retry-After': String(retryAfterSeconds) });

  /** Answers `error` in its surface's format; the headers it set for the problem. */
  const answer = (error: unknown, req: Request, res: Response): Record<string, string> => {
    const e = error as ValidatorError;
    // A path that matches no endpoint is a plain 404 with an empty body (v2.yaml, Errors).
    if (e?.status === 404 && !(error instanceof Problem) && typeof e.message === 'string' && /not found/i.test(e.message)) {
      res.status(404).end();
      return {};
    }
    if (error instanceof OAuthError) {
      renderOAuth(res, req, error);
      return {};
    }
    if (error instanceof HtmlPageError) {
      res.status(error.status).set(error.headers).type('text/html').send(error.html);
      return {};
    }
    const cause = (req as Request & { [internalCause]?: unknown })[internalCause] ?? error;
    const problem = toProblem(error, req) ?? (health.failed(cause) ? unavailable() : internalError());
    const instance = `urn:uuid:${randomUUID()}`;
    if (problem.slug === 'internal-error') {
      logger.error({ err: cause, instance, method: req.method, path: req.path }, 'internal error');
    }
    const type = contract.problems.get(problem.slug);
    if (!type) throw new Error(`problem slug ${problem.slug} is not in the contract`);
    res.set(problem.headers);
    if (type.status === 400 && appPages.has(req.path)) res.status(400).set(pageHeaders()).type('text/html').send(invalidRequestPage(problem.detail));
    else if (type.status === 503 && appPages.has(req.path)) res.status(503).set(pageHeaders()).type('text/html').send(unavailablePage(problem.detail));
    else renderers[surfaceOf(req.path)]({ req, res, error, problem, type, instance });
    return problem.headers;
  };

  return (error, req, res, _next) => {
    if (res.headersSent) return res.end();
    const state: { refusal?: unknown } = {};
    (req as Answering)[answering] = state;
    let headers: Record<string, string>;
    try {
      headers = answer(error, req, res);
    } finally {
      delete (req as Answering)[answering];
    }
    if (state.refusal === undefined || res.headersSent) return;
    // The answer is not one the operation documents: the server's fault, answered and logged
    // as any other, with the refusal as its cause (the validator's hook is spent, so this
    // answer is sent as it is), without the refused problem's headers.
    for (const name of Object.keys(headers)) res.removeHeader(name);
    (req as Request & { [internalCause]?: unknown })[internalCause] = state.refusal;
    answer(internalError(), req, res);
  };
}

interface Failure {
  req: Request;
  res: Response;
  /** What was thrown, before it became `problem`. */
  error: unknown;
  problem: Problem;
  type: ProblemType;
  instance: string;
}

/** v1 and lookup: `{"error": "<message>"}`. */
function renderPlain({ res, problem, type }: Failure) {
  res.status(type.status).json({ error: plainMessage(problem) });
}

/** Each surface's error format (each document's Errors section). */
const renderers: Record<Surface, (failure: Failure) => void> = {
  v2: ({ res, problem, type, instance }) => {
    res.status(type.status).type('application/problem+json').send(
      JSON.stringify({ type: type.type, title: type.title, status: type.status, detail: problem.detail, instance, ...problem.extra }),
    );
  },
  v1: renderPlain,
  lookup: renderPlain,
  auth: ({ req, res, error, problem, type }) => {
    // A request the validator or the body parser refused is an OAuth 400 (a page on /auth/launch).
    if (type.status < 500 && type.status !== 405) return renderOAuth(res, req, oauthErrorOf(error, problem, req.body));
    if (problem.slug === 'service-unavailable' && req.path === '/auth/launch') {
      res.status(503).set(pageHeaders()).type('text/html').send(launchErrorPage({ error: temporarilyUnavailable, description: problem.detail }));
      return;
    }
    const oauth = problem.slug === 'service-unavailable' ? temporarilyUnavailable : problem.slug === 'internal-error' ? 'server_error' : 'invalid_request';
    res.status(type.status).set('Cache-Control', 'no-store').json({ error: oauth, error_description: problem.detail });
  },
};

function renderOAuth(res: Response, req: Request, error: OAuthError) {
  if (req.path === '/auth/launch') {
    res.status(400).set(pageHeaders()).type('text/html').send(launchErrorPage(error));
    return;
  }
  res.status(400).set('Cache-Control', 'no-store').json({ error: error.error, error_description: error.description });
}

/**
 * The OAuth error of a request refused before its handler: a `grant_type` the schema does
 * not know is `unsupported_grant_type` (RFC 6749 section 5.2), anything else `invalid_request`.
 */
function oauthErrorOf(error: unknown, problem: Problem, body: unknown): OAuthError {
  const errors = (error as ValidatorError)?.errors ?? [];
  const unknownGrantType = errors.some((x) => x.path === '/body/grant_type' && !/required/.test(x.message));
  if (unknownGrantType && typeof (body as { grant_type?: unknown })?.grant_type === 'string') {
    return new OAuthError('unsupported_grant_type', `grant_type ${describeGrantType(body)} is not supported; use urn:ietf:params:oauth:grant-type:jwt-bearer or refresh_token.`);
  }
  if (problem.slug === 'unsupported-media-type') {
    return new OAuthError('invalid_request', 'Send the body as application/x-www-form-urlencoded or application/json.');
  }
  const missing = errors.map((x) => /must have required property '([^']+)'/.exec(x.message)?.[1]).filter((x) => x !== undefined);
  if (missing.length > 0) return new OAuthError('invalid_request', `The ${missing.join(', ')} parameter${missing.length === 1 ? ' is' : 's are'} required.`);
  const field = (problem.extra.errors as FieldError[] | undefined)?.[0];
  return new OAuthError('invalid_request', field ? `${field.pointer.slice(1) || 'body'} ${field.detail}.` : problem.detail);
}

const describeGrantType = (body: unknown) => {
  const value = (body as { grant_type?: unknown } | undefined)?.grant_type;
  return typeof value === 'string' ? value.slice(0, 100) : 'given';
};
