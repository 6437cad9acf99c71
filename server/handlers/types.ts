/**
 * Handler types derived from the generated contract types: a handler receives the
 * validated request of its operation and returns one of the operation's documented
 * success responses. `Handlers` needs one entry per operationId, so a missing or
 * misnamed handler fails `tsc` (and the start, see server/app.ts).
 */
import type { Request, Response } from 'express';
import type { operations } from '../../generated/types/ramp.ts';
import type { Services } from '../services.ts';
import type { Caller } from '../features/organizations/scope.ts';
import type { OrStored } from '../shared/storedBodies.ts';

/** Webhook operations are received by partners, not served. */
export type ServedOperationId = Exclude<keyof operations, `receive${string}` | `v1Receive${string}`>;

type Op<K extends keyof operations> = operations[K];
type Part<T, P extends string> = T extends { [key in P]?: infer V } ? (V extends undefined | never ? never : V) : never;

export type PathParams<K extends keyof operations> = [Part<Op<K>['parameters'], 'path'>] extends [never] ? Record<string, never> : NonNullable<Part<Op<K>['parameters'], 'path'>>;
export type QueryParams<K extends keyof operations> = [Part<Op<K>['parameters'], 'query'>] extends [never] ? Record<string, never> : NonNullable<Part<Op<K>['parameters'], 'query'>>;

type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : undefined;
export type RequestBody<K extends keyof operations> = Op<K> extends { requestBody?: infer B } ? ContentOf<NonNullable<B>> : undefined;

type Responses<K extends keyof operations> = Op<K>['responses'];
type SuccessStatus<K extends keyof operations> = Extract<keyof Responses<K>, 200 | 201 | 202 | 204>;

export type Reply<K extends keyof operations> = {
  [S in SuccessStatus<K>]: {
    status: S;
    /** Or the body as stored, or a list's stored page of its items (shared/storedBodies.ts). */
    body: OrStored<ContentOf<Responses<K>[S]>>;
    headers?: Record<string, string>;
    /** Content type when it is not JSON (text/html pages). */
    type?: string;
  };
}[SuccessStatus<K>];


export interface Context<K extends keyof operations> {
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  /** Absent on public operations. */
  caller: Caller;
  services: Services;
  req: Request;
  res: Response;
}

export type Handler<K extends keyof operations> = (context: Context<K>) => Promise<Reply<K>> | Reply<K>;

export type Handlers = { [K in ServedOperationId]: Handler<K> };
