/**
 * The v1 order state machines (the transitions the contract's V1OrderStatus documents for onramps and offramps),
 * one table per order type. Every status change goes through `nextOrderStatus`, so a
 * transition V1OrderStatus does not document cannot be applied from anywhere.
 */
import type { components } from '../../../../generated/types/ramp.ts';
import { everyValueOf } from '../../../shared/contractEnums.ts';
import { Problem } from '../../../shared/problems.ts';
import { defineMachine, type Machine, type Move } from '../../../shared/machine.ts';

export type V1OrderStatus = components['schemas']['V1OrderStatus'];
export type V1OrderType = components['schemas']['V1OrderType'];

export const v1OrderStatuses = everyValueOf<V1OrderStatus>()(['created', 'funded', 'completed', 'failed', 'canceled', 'refunded', 'finalized']);

/** What moves an order: the customer, the chain, the bank or the service. */
export type V1OrderEvent =
  | 'depositReceived'
  | 'depositMismatch'
  | 'tokensDelivered'
  | 'burnConfirmed'
  | 'fiatSent'
  | 'reversalWindowPassed'
  | 'fail'
  | 'cancel';

/** One table per order type; an event with no entry does not apply to that type (an onramp is never burned). */
export const v1OrderMoves: Record<V1OrderType, Partial<Record<V1OrderEvent, Move<V1OrderStatus>>>> = {
  onramp: {
    depositReceived: { from: ['created'], to: 'funded' },
    tokensDelivered: { from: ['funded'], to: 'completed' },
    fail: { from: ['created'], to: 'failed' },
    depositMismatch: { from: ['funded'], to: 'refunded' },
    cancel: { from: ['created'], to: 'canceled' },
  },
  offramp: {
    burnConfirmed: { from: ['created'], to: 'funded' },
    fiatSent: { from: ['funded'], to: 'completed' },
    reversalWindowPassed: { from: ['completed'], to: 'finalized' },
    fail: { from: ['created', 'funded'], to: 'failed' },
    cancel: { from: ['created'], to: 'canceled' },
  },
};

export const v1OrderMachines: Record<V1OrderType, Machine<V1OrderStatus, V1OrderEvent>> = {
  onramp: defineMachine({ states: v1OrderStatuses, moves: v1OrderMoves.onramp }),
  offramp: defineMachine({ states: v1OrderStatuses, moves: v1OrderMoves.offramp }),
};

/** Whether V1OrderStatus documents a transition from `from` to `to` for this order type. */
export function canMoveOrder(type: V1OrderType, from: V1OrderStatus, to: V1OrderStatus): boolean {
  return v1OrderMachines[type].canMove(from, to);
}

/** The status an event leads to, or undefined when it does not apply. */
export function orderEventTarget(type: V1OrderType, from: V1OrderStatus, event: V1OrderEvent): V1OrderStatus | undefined {
  const decision = v1OrderMachines[type].decide(from, event);
  return decision.allowed ? decision.to : undefined;
}

/** The status an event leads to; 409 `conflict` (with `message` when given) when it does not apply. */
export function nextOrderStatus(type: V1OrderType, from: V1OrderStatus, event: V1OrderEvent, message?: string): V1OrderStatus {
  const to = orderEventTarget(type, from, event);
  if (!to) throw new Problem('conflict', message ?? `Action ${event} does not apply to an ${type} order in status ${from}`);
  return to;
}

export type V1OrderSimulation = components['schemas']['V1SimulateOrderRequest']['action'];

/**
 * The move each sandbox simulation of a v1 order needs, so that one table says where each
 * applies (the simulators refuse it elsewhere, the console offers it there): the actions of
 * `POST /sandbox/ramp/order/{id}/simulate` (V1SimulateOrderRequest) and `fiatReceived`,
 * `POST /ramp/order/fiat_received`. `expireTransaction` changes no status: it expires the
 * burn transaction of an offramp that awaits its burn, so it applies where `burnConfirmed` does.
 */
export const v1OrderSimulationMoves: Record<V1OrderSimulation | 'fiatReceived', V1OrderEvent> = {
  fiatReceived: 'depositReceived',
  burnConfirmed: 'burnConfirmed',
  tokensDelivered: 'tokensDelivered',
  fiatSent: 'fiatSent',
  reversalWindowPassed: 'reversalWindowPassed',
  fail: 'fail',
  expireTransaction: 'burnConfirmed',
};

/** Whether a simulation applies to an order of this type in `status`. */
export const v1OrderSimulationApplies = (type: V1OrderType, status: V1OrderStatus, simulation: V1OrderSimulation | 'fiatReceived') =>
  orderEventTarget(type, status, v1OrderSimulationMoves[simulation]) !== undefined;
