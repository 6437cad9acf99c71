/**
 * createApp: body parsing → contract validation (requests, security, responses) →
 * one handler per operationId → the error handler.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { authenticate } from './domain/authenticate.ts';
import { errorHandler } from './errors.ts';
import type { Caller, Handler, Handlers, ServedOperationId } from './handlers/types.ts';
import type { Services } from './services.ts';

export const bodyLimit = '256kb';

export function createApp(services: Services, handlers: Handlers) {
  const { contract, config, storage, logger } = services;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: bodyLimit, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: false, limit: bodyLimit }));
  app.use(
    OpenApiValidator.middleware({
      // The validator resolves references in place; give it its own copy of the document.
      apiSpec: structuredClone(contract.document) as never,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
      validateResponses: config.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: {
        handlers: {
          ApiKey: async (req) => {
            (req as Request & { caller?: Caller }).caller = await authenticate(storage.db, config, req.headers.authorization, services.clock.now());
            return true;
          },
        },
      },
      validateFormats: true,
      ignoreUndocumented: false,
    }),
  );
  for (const operation of contract.operations) {
    const handler = handlers[operation.operationId as ServedOperationId] as Handler<ServedOperationId> | undefined;
    if (!handler) throw new Error(`no handler for operation ${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`);
    app[operation.method](toExpressPath(operation.path), serve(services, handler));
  }
  app.use(errorHandler(contract, logger));
  return app;
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

function serve(services: Services, handler: Handler<ServedOperationId>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const reply: LooseReply = await handler({
        params: req.params as never,
        query: req.query as never,
        body: req.body,
        caller: (req as Request & { caller: Caller }).caller,
        services,
        req,
        res,
      });
      res.status(reply.status);
      if (reply.headers) res.set(reply.headers);
      if (reply.body === undefined) res.end();
      else if (reply.type) res.type(reply.type).send(reply.body);
      else res.json(reply.body);
    } catch (error) {
      next(error);
    }
  };
}
