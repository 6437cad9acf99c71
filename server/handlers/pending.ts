/**
 * Operations of the contract whose handler is not written yet: they answer 501
 * `not-implemented` (NotImplementedProblem; v2.yaml, Errors). Delete an operation's line when its handler
 * lands in its surface module; tsc then requires that handler.
 */
import { Problem } from '../shared/problems.ts';
import type { Handler, ServedOperationId } from './types.ts';

export const pendingOperations = [
] as const satisfies readonly ServedOperationId[];

export type PendingOperationId = (typeof pendingOperations)[number];

const notImplemented: Handler<ServedOperationId> = () => {
  throw new Problem('not-implemented', 'This endpoint is documented but not available in this sandbox yet; do not retry.');
};

export const pendingHandlers = Object.fromEntries(pendingOperations.map((id) => [id, notImplemented])) as unknown as {
  [K in PendingOperationId]: Handler<K>;
};
