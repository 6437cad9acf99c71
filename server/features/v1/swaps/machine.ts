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

export type V1SwapSimulation = components['schemas']['V1SimulateSwapRequest']['action'];

/**
 * The move each simulation of `POST /sandbox/ramp/swap/{id}/simulate` needs, so that one table
 * says where each applies (the simulator refuses it elsewhere, the console offers it there).
 * `expireTransaction` changes no status: it expires the send transaction of a swap that awaits
 * its send, so it applies where `sendConfirmed` does. `fundsReceived` (funds_received, the
 * distinct update some chains report) keeps the swap `funded`: it applies where `delivered` does.
 */
export const v1SwapSimulationMoves: Record<V1SwapSimulation, V1SwapEvent> = {
  sendConfirmed: 'sendConfirmed',
  fundsReceived: 'delivered',
  delivered: 'delivered',
  fail: 'fail',
  expireTransaction: 'sendConfirmed',
};

/** Whether a simulation applies to a swap in `status`. */
export const v1SwapSimulationApplies = (status: V1SwapStatus, simulation: V1SwapSimulation) => swapEventTarget(status, v1SwapSimulationMoves[simulation]) !== undefined;

/** 409 `conflict` unless the simulation applies (for those that change no status; the others go through `nextSwapStatus`). */
export function assertSwapSimulationApplies(status: V1SwapStatus, simulation: V1SwapSimulation): void {
  if (!v1SwapSimulationApplies(status, simulation)) throw new Problem('conflict', `Action ${simulation} does not apply to a swap in status ${status}`);
}
