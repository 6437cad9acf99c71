/**
 * createApp: body parsing → contract validation (requests, security, responses) →
 * one handler per operationId → the error handler.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { authenticate } from './features/apiKeys/authenticate.ts';
import { assertSandbox } from './shared/environment.ts';
import { errorHandler, internalCause } from './http/errors.ts';
import { chain } from './http/chain.ts';
import { limitReads } from './features/rateLimits/useCases.ts';
import type { Handler, Handlers, ServedOperationId } from './handlers/types.ts';
import type { Caller } from './features/organizations/scope.ts';
import { Problem, validationError } from './shared/problems.ts';
import { bodyLimitBytes, integerQueryNames, refusedParameters, refusedValue } from './shared/requestLimits.ts';
import type { Services } from './services.ts';
import { submissionErrorHandler } from './http/submissionErrors.ts';
import { StoredBody, StoredPage } from './shared/storedBodies.ts';
import { storedAnswer } from './http/storedAnswers.ts';
import { surfaceOf, type ContractOperation } from './shared/contract.ts';
import { assertValidatorPatched } from './http/validatorPatch.ts';
import { withPartnerClock } from './features/clock/useCases.ts';
import { recordRequests } from './http/requestLog.ts';
import { requestRecorder } from './features/requestLog/recorder.ts';
import { isDateTime } from './shared/dateTime.ts';
import { canonicalUuid, isUuid } from './shared/uuid.ts';


export function createApp(services: Services, handlers: Handlers) {
  const { contract, config, storage, logger } = services;
  assertValidatorPatched();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Every request of a partner's key goes to the sandbox request log once answered (listSandboxRequests), and every request to one log line.
  app.use(recordRequests(requestRecorder(services), services.realClock, logger));
  app.use(bodyParsing());
  // Simulators do not exist in production, whatever the request (the Sandbox sections of v1.yaml and v2.yaml: 403 `forbidden`).
  // In the sandbox the guard would pass every time: it is only routed in production.
  if (config.env === 'production') {
    for (const operation of contract.operations.filter((o) => o.sandbox)) {
      app[operation.method](toExpressPath(operation.path), (_req: Request, _res: Response, next: NextFunction) => {
        assertSandbox(config);
        next();
      });
    }
  }
  const routes = operationRoutes(services, handlers);
  // Per matched operation object: its integer query parameters, found once.
  const integers = new WeakMap<object, string[]>();
  const integersOf = (operation: object | undefined) => {
    if (!operation) return [];
    let names = integers.get(operation);
    if (!names) integers.set(operation, (names = integerQueryNames(operation)));
    return names;
  };
  app.use(
    chain(...contractValidator(services), (req, res, next) => {
      const openapi = (req as Request & { openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> } }).openapi;
      const route = openapi?.schema?.operationId === undefined ? undefined : routes.get(openapi.schema.operationId);
      if (!route) return next();
      // Decoded by the validator and coerced to their schema types.
      req.params = openapi!.pathParams ?? {};
      // The parameters' text, as the body's was (shared/requestLimits.ts), before any handler looks it up.
      const refused = refusedParameters(req.params, req.originalUrl, integersOf(openapi!.schema));
      if (refused) return next(refused);
      route(req, res, next);
    }),
  );
  app.use(submissionErrorHandler(services));
  app.use(errorHandler(contract, logger, storage.health));
  return app;
}

/**
 * An empty body is `{}` whatever its label (`curl -d ''`), and so is an absent one (`curl
 * -X POST`: neither Content-Length nor Transfer-Encoding, which the body parsers skip):
 * v1 lists read it as the defaults (v1.yaml, Pagination), other operations name the fields they
 * need, and the validator's discriminator check never meets an undefined body. The steps run
 * as one Express layer (http/chain.ts).
 */
function bodyParsing(): RequestHandler {
  return chain(
    (req, _res, next) => {
      const length = req.headers['content-length'];
      const absent = length === undefined && req.headers['transfer-encoding'] === undefined;
      if ((absent || length === '0') && (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH')) {
        req.headers['content-type'] = 'application/json';
        if (absent) req.body = {};
      }
      next();
    },
    express.json({ limit: bodyLimitBytes, type: ['application/json', 'application/*+json'] }),
    express.urlencoded({ extended: false, limit: bodyLimitBytes }),
    // Every string of the body, JSON or form, and every array's length (shared/requestLimits.ts).
    (req, _res, next) => {
      const refused = refusedValue(req.body);
      next(refused === undefined ? undefined : validationError([refused]));
    },
  );
}

/** express-openapi-validator over the joined contract: requests, the API key, responses. */
function contractValidator(services: Services): RequestHandler[] {
  const { contract, config, storage } = services;
  return OpenApiValidator.middleware({
    // The validator resolves references in place; give it its own copy of the document.
    apiSpec: validatorDocument(contract.document) as never,
    // Query, path and header values are text and always coerced; a JSON body is not: `false`
    // is not the string "false" (coerceTypes would turn it into one).
    validateRequests: config.validateRequests ? { allowUnknownQueryParameters: false, coerceTypes: false } : false,
    validateResponses: config.validateResponses ? { removeAdditional: false } : false,
    validateSecurity: {
      handlers: {
        ApiKey: async (req) => {
          try {
            (req as Request & { caller?: Caller }).caller = await authenticate(storage.db, config, req.headers.authorization, services.realClock.now());
          } catch (error) {
            if (error instanceof Problem) throw error;
            // The validator turns whatever a security handler throws into a 401 with its
            // message: a failing database would read as a bad key and leak its error.
            (req as Request & { [internalCause]?: unknown })[internalCause] = error;
            throw Object.assign(new Error('authentication could not complete'), { status: 500 });
          }
          return true;
        },
      },
    },
    validateFormats: true,
    ...validatorFormats(),
    ignoreUndocumented: false,
    // No operation takes multipart/form-data: no multer pass on every request.
    fileUploader: false,
    // The generated document is linted and checked against openapi/ (npm run lint,
    // check:generated); checking it again against the OpenAPI schema took ~0.5 s of every start.
    validateApiSpec: false,
  })
    // Its path-parameter hook only serves Express routes with parameters; handlers are
    // dispatched by operation and read the parameters the validator decoded.
    .filter((middleware) => middleware.name !== 'pathParamsMiddleware') as RequestHandler[];
}

/**
 * The validator has already matched every request to its operation (or refused it): one
 * lookup by operationId instead of Express trying the contract's routes one by one. A missing
 * handler fails the start, not the first request.
 */
function operationRoutes(services: Services, handlers: Handlers) {
  const { contract, config } = services;
  const routes = new Map<string, (req: Request, res: Response, next: NextFunction) => void>();
  for (const operation of contract.operations) {
    const handler = handlers[operation.operationId as ServedOperationId] as Handler<ServedOperationId> | undefined;
    if (!handler) throw new Error(`no handler for operation ${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`);
    const limited = (config.rateLimitReadsPerSecond > 0 || config.rateLimitKeyReadsPerSecond > 0) && operation.method === 'get' && !operation.isPublic && surfaceOf(operation.path) === 'v2';
    const served = serve(services, handler, operation);
    if (!limited) routes.set(operation.operationId, served);
    else {
      const limit = limitReadsOf(services);
      routes.set(operation.operationId, (req, res, next) => limit(req, res, (error?: unknown) => (error ? next(error) : served(req, res, next))));
    }
  }
  return routes;
}

/**
 * The validator's formats that follow the service's own reading (v1.yaml and v2.yaml, Dates and
 * identifiers): a date-time is accepted only when it names an instant the service can read
 * (shared/dateTime.ts), a UUID only in its string form, and every UUID reaches the handlers in
 * its one canonical spelling (shared/uuid.ts), deserialized after its format check passed.
 * Made per validator: it adds its default serializers to the list it is given.
 */
export function validatorFormats() {
  const uuid = (text: string) => {
    const canonical = canonicalUuid(text);
    if (canonical === undefined) throw new Error('must match format "uuid"');
    return canonical;
  };
  return { formats: { 'date-time': isDateTime, uuid: isUuid }, serDes: [{ format: 'uuid', deserialize: uuid }] };
}

/**
 * The validator's own copy of the document.
 *
 * A free-form exploded query object (the app pages' `query`: any parameters, passed on) is
 * "any query parameter" to it, except a parameter spelled like the object's own name, which
 * it then checks as the whole object and refuses (`?query=x`). Such an operation is given to
 * it as taking any query parameter.
 *
 * The app pages' session cookie (the `AppSession` scheme) is checked by the pages
 * themselves: without it they answer their documented signed-out page (401, HTML), where
 * the validator would answer its own JSON error. It checks only the API key.
 */
function validatorDocument(document: Record<string, any>) {
  const copy = structuredClone(document);
  const resolve = (p: Record<string, any>) => (typeof p.$ref === 'string' ? copy.components.parameters[p.$ref.split('/').pop()!] : p);
  const inPlace = (p: Record<string, any>) => (typeof p.$ref === 'string' ? structuredClone(resolve(p)) : p);
  for (const item of Object.values<Record<string, any>>(copy.paths ?? {})) {
    // The validator gives a format's deserializer (a UUID's lower-case spelling) only to the
    // parameters written in place, not to those given by reference: all are written in place.
    if (Array.isArray(item.parameters)) item.parameters = item.parameters.map(inPlace);
    for (const operation of Object.values<Record<string, any>>(item)) {
      if (Array.isArray(operation?.security)) operation.security = operation.security.filter((s: Record<string, unknown>) => !('AppSession' in s));
      if (!Array.isArray(operation?.parameters)) continue;
      operation.parameters = operation.parameters.map(inPlace);
      const freeForm = (p: Record<string, any>) => resolve(p).in === 'query' && resolve(p).schema?.type === 'object' && resolve(p).explode !== false && resolve(p).schema?.additionalProperties;
      if (!operation.parameters.some(freeForm)) continue;
      operation.parameters = operation.parameters.filter((p: Record<string, any>) => !freeForm(p));
      operation['x-eov-allow-unknown-query-parameters'] = true;
    }
  }
  return copy;
}

/** What every handler returns, seen without its operation's types. */
interface LooseReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  type?: string;
}

/** `/organization/{organizationId}/order/{id}` → `/organization/:organizationId/order/:id` */
export const toExpressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** v2 reads count against their organization's and their key's rate limits (server/features/rateLimits/useCases.ts). */
function limitReadsOf(services: Services) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const caller = (req as Request & { caller: Caller }).caller;
    limitReads(
      services,
      caller,
      req.params.organizationId as string | undefined,
      { readsPerSecond: services.config.rateLimitReadsPerSecond, keyReadsPerSecond: services.config.rateLimitKeyReadsPerSecond, windowSeconds: services.config.rateLimitWindowSeconds },
      // Rate-limit windows count real seconds, whatever the partner's sandbox clock says.
      services.realClock.now(),
    ).then(() => next(), next);
  };
}

function serve(services: Services, handler: Handler<ServedOperationId>, operation: ContractOperation) {
  const answerStored = storedAnswer(services, operation);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const caller = (req as Request & { caller: Caller }).caller;
      const reply: LooseReply = await handler({
        params: req.params as never,
        query: req.query as never,
        body: req.body,
        caller,
        // The partner's sandbox clock for everything the request reads and changes (features/clock).
        services: withPartnerClock(services, caller),
        req,
        res,
      });
      res.status(reply.status);
      if (reply.headers) res.set(reply.headers);
      if (reply.body === undefined) res.end();
      else if (reply.body instanceof StoredBody || reply.body instanceof StoredPage) answerStored(res, reply.status, reply.body);
      else if (reply.type) res.type(reply.type).send(reply.body);
      else res.json(reply.body);
    } catch (error) {
      next(error);
    }
  };
}
