/**
 * KYC and KYB submissions report every missing or invalid field in one 400 (seed part 7).
 * The contract validator stops at the first error of a body, so for these routes its error
 * is replaced by the complete list (shape and rules, server/features/verification/input.ts).
 * The v1 route answers in its documented shape, `{"error", "details": [{field, message}]}`,
 * for its own field errors and for a body that is not JSON. Every other error goes on to
 * the error handler unchanged.
 */
import type { ErrorRequestHandler } from 'express';
import { dottedPath, submissionErrors, type SubmissionSchema } from '../features/verification/input.ts';
import { Problem, validationError, type FieldError } from '../shared/problems.ts';
import type { Services } from '../services.ts';

interface SubmissionRoute {
  method: string;
  path: RegExp;
  schema: SubmissionSchema;
  surface: 'v1' | 'v2';
}

const maxListedFields = 200;

const routes: SubmissionRoute[] = [
  { method: 'PUT', path: /^\/organization\/[^/]+\/kyc\/?$/, schema: 'KycRequest', surface: 'v2' },
  { method: 'PUT', path: /^\/organization\/[^/]+\/kyb\/?$/, schema: 'KybRequest', surface: 'v2' },
  { method: 'POST', path: /^\/ramp\/customer\/[^/]+\/kyc\/?$/, schema: 'V1SubmitKycRequest', surface: 'v1' },
];

interface ValidatorError {
  status?: number;
  type?: string;
  errors?: { path?: string; message?: string }[];
}

export function submissionErrorHandler(services: Pick<Services, 'contract' | 'clock'>): ErrorRequestHandler {
  return (error, req, res, next) => {
    const route = routes.find((r) => r.method === req.method && r.path.test(req.path));
    if (!route || res.headersSent) return next(error);
    const e = error as ValidatorError;
    let fields: FieldError[] | undefined;
    if (error instanceof Problem) {
      if (error.slug === 'validation-error') fields = error.extra.errors as FieldError[];
    } else if (e?.status === 400 && e.type === 'entity.parse.failed') {
      if (route.surface === 'v1') return res.status(400).json({ error: 'Invalid JSON body', details: [{ field: 'body', message: 'is not valid JSON' }] });
    } else if (e?.status === 400 && (e.errors ?? []).length > 0 && (e.errors ?? []).every((x) => x.path?.startsWith('/body'))) {
      // The validator saw the first problem of the body: report all of them.
      fields = submissionErrors(services.contract.document, route.schema, req.body, services.clock.now());
    } else if (e?.status === 400 && route.surface === 'v1' && (e.errors ?? []).length > 0) {
      // A bad path parameter: still the documented v1 shape of this route's 400.
      const others = (e.errors ?? []).filter((x) => !x.path?.startsWith('/body'));
      const inBody = others.length < (e.errors ?? []).length ? submissionErrors(services.contract.document, route.schema, req.body, services.clock.now()) : [];
      const details = [
        ...others.map((x) => ({ field: (x.path ?? '').replace(/^\/(params|path|query)\//, ''), message: x.message ?? 'is invalid' })),
        ...inBody.map((f) => ({ field: dottedPath(f.pointer), message: f.detail })),
      ];
      return res.status(400).json({ error: 'Invalid request', details });
    }
    if (!fields || fields.length === 0) return next(error);
    // Every field of a real submission fits; an array of junk does not make a megabyte answer.
    const total = fields.length;
    fields = fields.slice(0, maxListedFields);
    if (route.surface === 'v2') {
      return next(total > maxListedFields ? new Problem('validation-error', `The request has ${total} invalid fields (the first ${maxListedFields} are listed).`, { errors: fields }) : validationError(fields));
    }
    return res.status(400).json({ error: 'Invalid KYC submission', details: fields.map((f) => ({ field: dottedPath(f.pointer), message: f.detail })) });
  };
}
