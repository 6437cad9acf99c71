/**
 * The v1 state machines as tables: for every (from, to) pair of statuses, the ones V1OrderStatus
 * and V1SwapStatus document are allowed and every other is refused; for every (status, event) pair the
 * event leads where the table says, or is a 409 `conflict`.
 */
import { describe, expect, it } from 'vitest';
import {
  canMoveBankAccount,
  initialBankAccountStatus,
  isBankAccountUsable,
  v1BankAccountStatuses,
} from '../../../server/features/v1/bankAccounts/machine.ts';
import {
  canMoveOrder,
  nextOrderStatus,
  orderEventTarget,
  v1OrderSimulationApplies,
  v1OrderStatuses,
  type V1OrderEvent,
  type V1OrderStatus,
  type V1OrderType,
} from '../../../server/features/v1/orders/machine.ts';
import { assertSwapSimulationApplies, canMoveSwap, nextSwapStatus, v1SwapSimulationApplies, v1SwapStatuses, type V1SwapEvent } from '../../../server/features/v1/swaps/machine.ts';
import { Problem } from '../../../server/shared/problems.ts';

/** The documented transitions, written out independently of the module under test. */
const documentedOrderArrows: Record<V1OrderType, string[]> = {
  onramp: ['created>funded', 'funded>completed', 'created>failed', 'funded>refunded', 'created>canceled'],
  offramp: ['created>funded', 'funded>completed', 'completed>finalized', 'created>failed', 'funded>failed', 'created>canceled'],
};

const orderEvents: Record<V1OrderType, Record<string, V1OrderStatus>> = {
  onramp: {
    'created:depositReceived': 'funded',
    'funded:tokensDelivered': 'completed',
    'funded:depositMismatch': 'refunded',
    'created:fail': 'failed',
    'created:cancel': 'canceled',
  },
  offramp: {
    'created:burnConfirmed': 'funded',
    'funded:fiatSent': 'completed',
    'completed:reversalWindowPassed': 'finalized',
    'created:fail': 'failed',
    'funded:fail': 'failed',
    'created:cancel': 'canceled',
  },
};

const allOrderEvents: V1OrderEvent[] = ['depositReceived', 'depositMismatch', 'tokensDelivered', 'burnConfirmed', 'fiatSent', 'reversalWindowPassed', 'fail', 'cancel'];

describe.each(['onramp', 'offramp'] as const)('v1 %s order machine', (type) => {
  const pairs = v1OrderStatuses.flatMap((from) => v1OrderStatuses.map((to) => [from, to] as const));

  it.each(pairs)(`%s → %s is allowed exactly when the contract documents it`, (from, to) => {
    expect(canMoveOrder(type, from, to)).toBe(documentedOrderArrows[type].includes(`${from}>${to}`));
  });

  const steps = v1OrderStatuses.flatMap((from) => allOrderEvents.map((event) => [from, event] as const));

  it.each(steps)(`in %s, %s applies as the table says or is a 409`, (from, event) => {
    const expected = orderEvents[type][`${from}:${event}`];
    expect(orderEventTarget(type, from, event)).toBe(expected);
    if (expected) {
      expect(nextOrderStatus(type, from, event)).toBe(expected);
      expect(documentedOrderArrows[type]).toContain(`${from}>${expected}`);
    } else {
      expect(() => nextOrderStatus(type, from, event)).toThrow(Problem);
      try {
        nextOrderStatus(type, from, event, 'custom message');
      } catch (error) {
        expect(error).toMatchObject({ slug: 'conflict', detail: 'custom message' });
      }
    }
  });

  // The simulations an order in each status accepts (the console's buttons), from V1SimulateOrderRequest and v1ConfirmFiatReceived.
  const offered: Record<V1OrderType, Partial<Record<V1OrderStatus, string[]>>> = {
    onramp: { created: ['fiatReceived', 'fail'], funded: ['tokensDelivered'] },
    offramp: { created: ['burnConfirmed', 'fail', 'expireTransaction'], funded: ['fiatSent', 'fail'], completed: ['reversalWindowPassed'] },
  };
  it.each(v1OrderStatuses)('offers in %s exactly the simulations the simulators accept', (status) => {
    const all = ['fiatReceived', 'burnConfirmed', 'tokensDelivered', 'fiatSent', 'reversalWindowPassed', 'fail', 'expireTransaction'] as const;
    expect(all.filter((s) => v1OrderSimulationApplies(type, status, s))).toEqual(offered[type][status] ?? []);
  });

  it('leaves the terminal statuses only by no arrow', () => {
    const terminal = type === 'onramp' ? ['completed', 'failed', 'canceled', 'refunded'] : ['finalized', 'failed', 'canceled'];
    for (const from of terminal) for (const to of v1OrderStatuses) expect(canMoveOrder(type, from as V1OrderStatus, to)).toBe(false);
  });
});

describe('v1 swap machine', () => {
  const arrows = ['created>funded', 'funded>completed', 'created>failed', 'funded>failed'];
  const pairs = v1SwapStatuses.flatMap((from) => v1SwapStatuses.map((to) => [from, to] as const));

  it.each(pairs)('%s → %s is allowed exactly when the contract documents it', (from, to) => {
    expect(canMoveSwap(from, to)).toBe(arrows.includes(`${from}>${to}`));
  });

  const events: Record<string, string> = { 'created:sendConfirmed': 'funded', 'funded:delivered': 'completed', 'created:fail': 'failed', 'funded:fail': 'failed' };
  const steps = v1SwapStatuses.flatMap((from) => (['sendConfirmed', 'delivered', 'fail'] as V1SwapEvent[]).map((event) => [from, event] as const));

  it.each(steps)('in %s, %s applies as the table says or is a 409', (from, event) => {
    const expected = events[`${from}:${event}`];
    if (expected) expect(nextSwapStatus(from, event)).toBe(expected);
    else expect(() => nextSwapStatus(from, event)).toThrow(expect.objectContaining({ slug: 'conflict' }));
  });

  it.each(v1SwapStatuses)('funds_received is accepted only while funded (%s)', (status) => {
    if (status === 'funded') expect(() => assertSwapSimulationApplies(status, 'fundsReceived')).not.toThrow();
    else expect(() => assertSwapSimulationApplies(status, 'fundsReceived')).toThrow(expect.objectContaining({ slug: 'conflict' }));
  });

  // The simulations a swap in each status accepts (the console's buttons), from V1SimulateSwapRequest's description.
  it.each(v1SwapStatuses)('offers in %s exactly the simulations the simulator accepts', (status) => {
    const expected: Record<string, string[]> = { created: ['sendConfirmed', 'fail', 'expireTransaction'], funded: ['fundsReceived', 'delivered', 'fail'], completed: [], failed: [] };
    expect((['sendConfirmed', 'fundsReceived', 'delivered', 'fail', 'expireTransaction'] as const).filter((s) => v1SwapSimulationApplies(status, s))).toEqual(expected[status]);
  });
});

describe('v1 bank account statuses', () => {
  const pairs = v1BankAccountStatuses.flatMap((from) => v1BankAccountStatuses.map((to) => [from, to] as const));

  it.each(pairs)('%s → %s is a change exactly when the status differs', (from, to) => {
    expect(canMoveBankAccount(from, to)).toBe(from !== to);
  });

  it('starts pending and is usable only when active and compliant', () => {
    expect(initialBankAccountStatus).toBe('bank_account_pending');
    for (const status of v1BankAccountStatuses) {
      for (const compliant of [true, false]) {
        expect(isBankAccountUsable({ status, compliant })).toBe(status === 'bank_account_active' && compliant);
      }
    }
  });
});
