/**
 * KYC and KYB submissions report every missing or invalid field in one 400 (submitKyc, submitKyb, v1SubmitCustomerKyc).
 * The contract validator stops at the first error of a body, so for these routes its error
 * is replaced by the complete list (shape and rules, server/features/verification/input.ts).
 * The v1 route answers in its documented shape, `{"error", "details": [{field, message}]}`,
 * for its own field errors and for a body that is not JSON. Every other error goes on to
 * the error handler unchanged.
 */
import type { ErrorRequestHandler, Request } from 'express';
import type { operations } from '../../generated/types/ramp.ts';
import type { Contract } from '../shared/contract.ts';
import { dottedPath, submissionErrors, type SubmissionSchema } from '../features/verification/input.ts';
import { Problem, validationError, type FieldError } from '../shared/problems.ts';
import { RefusedParameter } from '../shared/requestLimits.ts';
import type { Services } from '../services.ts';
import { withPartnerClock } from '../features/clock/useCases.ts';
import type { Caller } from '../features/organizations/scope.ts';

/** The operations whose submission errors are listed in full, by operationId: the schema of their body and their surface. */
const submissions = {
  submitKyc: { schema: 'KycRequest', surface: 'v2' },
  submitKyb: { schema: 'KybRequest', surface: 'v2' },
  v1SubmitCustomerKyc: { schema: 'V1SubmitKycRequest', surface: 'v1' },
} as const satisfies Partial<Record<keyof operations, { schema: SubmissionSchema; surface: 'v1' | 'v2' }>>;

type SubmissionOperation = keyof typeof submissions;

const maxListedFields = 200;

const isSubmission = (operationId: string | undefined): operationId is SubmissionOperation => operationId !== undefined && Object.hasOwn(submissions, operationId);

/**
 * The submission operation a failed request was for: the one the validator matched, or, for a
 * body refused before the validator ran (not JSON), the one whose contract path and method
 * match, with Express's optional trailing slash.
 */
function submissionOf(contract: Contract) {
  const routes = contract.operations
    .filter((o) => isSubmission(o.operationId))
    .map((o) => ({
      operationId: o.operationId as SubmissionOperation,
      method: o.method.toUpperCase(),
      path: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  return (req: Request): SubmissionOperation | undefined => {
    const matched = (req as Request & { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
    if (matched !== undefined) return isSubmission(matched) ? matched : undefined;
    return routes.find((r) => r.method === req.method && r.path.test(req.path))?.operationId;
  };
}

interface ValidatorError {
  status?: number;
  type?: string;
  errors?: { path?: string; message?: string }[];
}

export function submissionErrorHandler(services: Services): ErrorRequestHandler {
  const operationOf = submissionOf(services.contract);
  return (error, req, res, next) => {
    const operationId = operationOf(req);
    if (!operationId || res.headersSent) return next(error);
    const route = submissions[operationId];
    // Dates are judged on the caller's sandbox clock, as the handler judges them (its
    // birthDate "18 or older", "not in the future"): one body, one list, whichever path refuses it.
    const { clock } = withPartnerClock(services, (req as typeof req & { caller?: Caller }).caller);
    const e = error as ValidatorError;
    let fields: FieldError[] | undefined;
    if (error instanceof RefusedParameter) {
      // A parameter refused as text, before any handler: still the documented v1 shape of this route's 400.
      if (route.surface === 'v1') return res.status(400).json({ error: 'Invalid request', details: [{ field: error.where, message: error.detail }] });
    } else if (error instanceof Problem) {
      if (error.slug === 'validation-error') fields = error.extra.errors as FieldError[];
    } else if (e?.status === 400 && e.type === 'entity.parse.failed') {
      if (route.surface === 'v1') return res.status(400).json({ error: 'Invalid JSON body', details: [{ field: 'body', message: 'is not valid JSON' }] });
    } else if (e?.status === 400 && (e.errors ?? []).length > 0 && (e.errors ?? []).every((x) => x.path?.startsWith('/body'))) {
      // The validator saw the first problem of the body: report all of them.
      fields = submissionErrors(services.contract.document, route.schema, req.body, clock.now());
    } else if (e?.status === 400 && route.surface === 'v1' && (e.errors ?? []).length > 0) {
      // A bad path parameter: still the documented v1 shape of this route's 400.
      const others = (e.errors ?? []).filter((x) => !x.path?.startsWith('/body'));
      const inBody = others.length < (e.errors ?? []).length ? submissionErrors(services.contract.document, route.schema, req.body, clock.now()) : [];
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
