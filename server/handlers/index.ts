/**
 * The handler of every operation the server serves, by operationId. `Handlers` requires
 * one per operation of the contract, so a missing handler fails `tsc`; an export whose
 * name is no operationId fails it too (see `Misnamed`).
 */
import * as auth from './auth/index.ts';
import * as lookup from './lookup/index.ts';
import { pendingHandlers } from './pending.ts';
import type { Handlers, ServedOperationId } from './types.ts';
import * as v1 from './v1/index.ts';
import * as v2 from './v2/index.ts';

const surfaces = { ...lookup, ...v1, ...v2, ...auth };

type Misnamed = Exclude<keyof typeof surfaces, ServedOperationId>;
const everyExportIsAnOperation: [Misnamed] extends [never] ? true : Misnamed = true;
void everyExportIsAnOperation;

export const handlers: Handlers = { ...pendingHandlers, ...surfaces };
