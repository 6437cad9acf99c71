/**
 * The v1 order state machines (the transitions the contract's V1OrderStatus documents for onramps and offramps),
 * one table per order type. Every status change goes through `nextOrderStatus`, so a
 * transition V1OrderStatus does not document cannot be applied from anywhere.
 */
import type { components } from '../../../../generated/types/ramp.ts';
import { everyValueOf } from '../../../shared/contractEnums.ts';
import { Problem } from '../../../shared/problems.ts';

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

type Row = readonly [from: V1OrderStatus, event: V1OrderEvent, to: V1OrderStatus];

export const v1OrderTransitions: Record<V1OrderType, readonly Row[]> = {
  onramp: [
    ['created', 'depositReceived', 'funded'],
    ['funded', 'tokensDelivered', 'completed'],
    ['created', 'fail', 'failed'],
    ['funded', 'depositMismatch', 'refunded'],
    ['created', 'cancel', 'canceled'],
  ],
  offramp: [
    ['created', 'burnConfirmed', 'funded'],
    ['funded', 'fiatSent', 'completed'],
    ['completed', 'reversalWindowPassed', 'finalized'],
    ['created', 'fail', 'failed'],
    ['funded', 'fail', 'failed'],
    ['created', 'cancel', 'canceled'],
  ],
};

/** Whether V1OrderStatus documents a transition from `from` to `to` for this order type. */
export function canMoveOrder(type: V1OrderType, from: V1OrderStatus, to: V1OrderStatus): boolean {
  return v1OrderTransitions[type].some(([f, , t]) => f === from && t === to);
}

/** The status an event leads to, or undefined when it does not apply. */
export function orderEventTarget(type: V1OrderType, from: V1OrderStatus, event: V1OrderEvent): V1OrderStatus | undefined {
  return v1OrderTransitions[type].find(([f, e]) => f === from && e === event)?.[2];
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
