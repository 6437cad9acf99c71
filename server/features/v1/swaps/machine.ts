/** The v1 swap state machine (the contract's V1SwapStatus). */
import type { components } from '../../../../generated/types/ramp.ts';
import { everyValueOf } from '../../../shared/contractEnums.ts';
import { Problem } from '../../../shared/problems.ts';

export type V1SwapStatus = components['schemas']['V1SwapStatus'];

export const v1SwapStatuses = everyValueOf<V1SwapStatus>()(['created', 'funded', 'completed', 'failed']);

export type V1SwapEvent = 'sendConfirmed' | 'delivered' | 'fail';

type Row = readonly [from: V1SwapStatus, event: V1SwapEvent, to: V1SwapStatus];

export const v1SwapTransitions: readonly Row[] = [
  ['created', 'sendConfirmed', 'funded'],
  ['funded', 'delivered', 'completed'],
  ['created', 'fail', 'failed'],
  ['funded', 'fail', 'failed'],
];

export function canMoveSwap(from: V1SwapStatus, to: V1SwapStatus): boolean {
  return v1SwapTransitions.some(([f, , t]) => f === from && t === to);
}

export function swapEventTarget(from: V1SwapStatus, event: V1SwapEvent): V1SwapStatus | undefined {
  return v1SwapTransitions.find(([f, e]) => f === from && e === event)?.[2];
}

export function nextSwapStatus(from: V1SwapStatus, event: V1SwapEvent): V1SwapStatus {
  const to = swapEventTarget(from, event);
  if (!to) throw new Problem('conflict', `Action ${event} does not apply to a swap in status ${from}`);
  return to;
}

/**
 * `funds_received` (V1SimulateSwapRequest's fundsReceived): some chains report the service received the funds as a
 * distinct update while the swap stays `funded`. It changes no status.
 */
export function assertFundsReceivable(status: V1SwapStatus): void {
  if (status !== 'funded') throw new Problem('conflict', `Action fundsReceived does not apply to a swap in status ${status}`);
}
