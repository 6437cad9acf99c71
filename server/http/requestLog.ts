/**
 * The request log's hook on every request (features/requestLog): the answer's bytes are kept
 * as they are written, and once the answer is sent the request goes to the recorder, which
 * decides whether and what to keep; the same moment writes the process's one log line per
 * request. Nothing here can fail or delay an answer.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Caller } from '../features/organizations/scope.ts';
import type { RequestRecorder } from '../features/requestLog/recorder.ts';
import { captureBytes } from '../features/requestLog/rules.ts';
import type { Clock } from '../services.ts';

type Chunk = string | Buffer | Uint8Array;

export function recordRequests(recorder: RequestRecorder, realClock: Clock, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const receivedAt = realClock.now();
    const started = performance.now();
    const answer: (string | Buffer)[] = [];
    let kept = 0;
    const keep = (chunk: unknown) => {
      if (kept >= captureBytes || (typeof chunk !== 'string' && !(chunk instanceof Uint8Array))) return;
      const part = typeof chunk === 'string' ? chunk : Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength);
      answer.push(part);
      kept += part.length;
    };
    const { write, end } = res;
    res.write = function (this: Response, chunk: Chunk, ...rest: unknown[]) {
      keep(chunk);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Response['write'];
    res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk);
      return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
    } as Response['end'];
    res.on('finish', () => {
      // The route's parameters as the validator decoded them: Express restores req.params as a request leaves each layer.
      const openapi = (req as Request & { openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> } }).openapi;
      const caller = (req as Request & { caller?: Caller }).caller;
      const durationMs = performance.now() - started;
      // As a partner's CI reads it: the path without its query string, and never the key or its header.
      logger.info({
        method: req.method,
        path: req.originalUrl.split('?')[0],
        operationId: openapi?.schema?.operationId,
        status: res.statusCode,
        durationMs: Math.round(durationMs),
        organizationId: caller?.organization.id,
      }, 'request');
      recorder.record({
        caller,
        authorization: req.headers.authorization,
        method: req.method,
        url: req.originalUrl,
        operationId: openapi?.schema?.operationId,
        params: openapi?.pathParams ?? {},
        body: req.body,
        status: res.statusCode,
        durationMs,
        receivedAt,
        answer,
      });
    });
    next();
  };
}
