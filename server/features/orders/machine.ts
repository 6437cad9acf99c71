/**
 * The v2 order state machine (the contract's OrderStatus; its transitions are
 * designed). Every status change goes through `transition`, so an
 * illegal move is refused with its documented problem before anything is written.
 *
 *   created   → funded (deposit, confirmSourceFunds, authorize), refunded (depositMismatch),
 *               failed (fail), canceled (cancel, expireFunding)
 *   funded    → completed (deliver, settle), claimable (makeClaimable), failed, refunded
 *   claimable → completed (completeClaim), failed
 *   completed, failed, canceled, refunded: final
 */
import type { components } from '../../../generated/types/ramp.ts';
import { Problem, type ProblemSlug } from '../../shared/problems.ts';
import { everyValueOf } from '../../shared/contractEnums.ts';
import { defineMachine, type Move } from '../../shared/machine.ts';

export type OrderStatus = components['schemas']['OrderStatus'];
export const orderStatuses = everyValueOf<OrderStatus>()(['created', 'funded', 'claimable', 'completed', 'failed', 'canceled', 'refunded']);

/** No move leaves these. */
export const finalStatuses: readonly OrderStatus[] = ['completed', 'failed', 'canceled', 'refunded'];

export type OrderAction =
  /** The quoted fiat arrived (sandbox: simulateDeposit). */
  | 'deposit'
  /** A fiat deposit of another amount arrived: it is returned. */
  | 'depositMismatch'
  /** The source tokens arrived on-chain (sandbox: confirmSourceFunds). */
  | 'confirmSourceFunds'
  /** The embedded wallet's owner signed, and the tokens left the wallet. */
  | 'authorize'
  | 'deliver'
  /** A funded onramp completing on its own after a simulated deposit (a job). */
  | 'settle'
  | 'makeClaimable'
  | 'completeClaim'
  | 'fail'
  | 'cancel'
  | 'expireFunding'
  | 'refund';

export const orderActions: Record<OrderAction, Move<OrderStatus>> = {
  deposit: { from: ['created'], to: 'funded' },
  depositMismatch: { from: ['created'], to: 'refunded' },
  confirmSourceFunds: { from: ['created'], to: 'funded' },
  authorize: { from: ['created'], to: 'funded' },
  deliver: { from: ['funded'], to: 'completed' },
  settle: { from: ['funded'], to: 'completed' },
  makeClaimable: { from: ['funded'], to: 'claimable' },
  completeClaim: { from: ['claimable'], to: 'completed' },
  fail: { from: ['created', 'funded', 'claimable'], to: 'failed' },
  cancel: { from: ['created'], to: 'canceled' },
  expireFunding: { from: ['created'], to: 'canceled' },
  refund: { from: ['funded'], to: 'refunded' },
};

export const orderMachine = defineMachine({ states: orderStatuses, moves: orderActions });

export const canTransition = (from: OrderStatus, to: OrderStatus) => orderMachine.canMove(from, to);

/** The problem that refuses an action, by what the caller asked for. */
const refusalSlug: Partial<Record<OrderAction, ProblemSlug>> = {
  cancel: 'order-not-cancelable',
};

/**
 * The status an action leads to from `from`, or the documented refusal: cancel is
 * `order-not-cancelable`, every other action (simulators, deposits, authorizations) `conflict`.
 */
export function transition(from: OrderStatus, action: OrderAction): OrderStatus {
  const decision = orderMachine.decide(from, action);
  if (decision.allowed) return decision.to;
  throw new Problem(refusalSlug[action] ?? 'conflict', `${action} is not allowed from ${from}; it needs a ${decision.needs.join(' or ')} order.`);
}

type OrderType = components['schemas']['OrderType'];
export type OrderSimulation = components['schemas']['SimulateOrderRequest']['action'];

/**
 * Where each sandbox simulator of an order applies: `deposit` (simulateDeposit) and the actions
 * of simulateOrder, by the order types it serves (every type when none is named) and the statuses it starts from (a move's
 * `from`; replaceFundingInstructions changes no status and needs a created order). The
 * simulators refuse through this table and the sandbox console offers a button where it applies.
 */
export const orderSimulations: Record<OrderSimulation | 'deposit', { types?: readonly OrderType[]; from: readonly OrderStatus[] }> = {
  deposit: { types: ['onramp'], from: orderActions.deposit.from },
  confirmSourceFunds: { types: ['offramp', 'swap'], from: orderActions.confirmSourceFunds.from },
  deliver: { from: orderActions.deliver.from },
  makeClaimable: { from: orderActions.makeClaimable.from },
  completeClaim: { from: orderActions.completeClaim.from },
  fail: { from: orderActions.fail.from },
  expireFunding: { from: orderActions.expireFunding.from },
  refund: { from: orderActions.refund.from },
  replaceFundingInstructions: { from: ['created'] },
};

/** Whether a simulator serves orders of `type` (whatever their status). */
export const orderSimulationServes = (type: OrderType, simulation: OrderSimulation | 'deposit') => orderSimulations[simulation].types?.includes(type) ?? true;

/** Whether a simulator applies to an order of `type` in `status`. */
export const orderSimulationApplies = (type: OrderType, status: OrderStatus, simulation: OrderSimulation | 'deposit') =>
  orderSimulationServes(type, simulation) && orderSimulations[simulation].from.includes(status);

export const isOrderStatus = (value: string): value is OrderStatus => (orderStatuses as readonly string[]).includes(value);
