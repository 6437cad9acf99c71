/** The v1 swap state machine (the contract's V1SwapStatus). */
import type { components } from '../../../../generated/types/ramp.ts';
import { everyValueOf } from '../../../shared/contractEnums.ts';
import { Problem } from '../../../shared/problems.ts';
import { defineMachine } from '../../../shared/machine.ts';

export type V1SwapStatus = components['schemas']['V1SwapStatus'];

export const v1SwapStatuses = everyValueOf<V1SwapStatus>()(['created', 'funded', 'completed', 'failed']);

/** `fundsReceived` (V1SimulateSwapRequest's fundsReceived): some chains report the service received the funds as a distinct update while the swap stays `funded`; it changes no status. */
export type V1SwapEvent = 'sendConfirmed' | 'fundsReceived' | 'delivered' | 'fail';

export const v1SwapMachine = defineMachine<V1SwapStatus, V1SwapEvent>({
  states: v1SwapStatuses,
  moves: {
    sendConfirmed: { from: ['created'], to: 'funded' },
    fundsReceived: { from: ['funded'], to: 'funded' },
    delivered: { from: ['funded'], to: 'completed' },
    fail: { from: ['created', 'funded'], to: 'failed' },
  },
});

export const canMoveSwap = (from: V1SwapStatus, to: V1SwapStatus): boolean => v1SwapMachine.canMove(from, to);

export function swapEventTarget(from: V1SwapStatus, event: V1SwapEvent): V1SwapStatus | undefined {
  const decision = v1SwapMachine.decide(from, event);
  return decision.allowed ? decision.to : undefined;
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
 * its send, so it applies where `sendConfirmed` does. `fundsReceived` is the
 * machine's stay on `funded`.
 */
export const v1SwapSimulationMoves: Record<V1SwapSimulation, V1SwapEvent> = {
  sendConfirmed: 'sendConfirmed',
  fundsReceived: 'fundsReceived',
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
