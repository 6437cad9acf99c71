import { describe, expect, it } from 'vitest';
import { canTransition, finalStatuses, orderActions, orderSimulationApplies, orderSimulations, orderStatuses, transition, type OrderAction, type OrderStatus } from '../../../server/features/orders/machine.ts';
import { Problem } from '../../../server/shared/problems.ts';

/** The v2 order transitions, written out once more by hand: every pair not listed is illegal. */
const legal: Record<OrderStatus, OrderStatus[]> = {
  created: ['funded', 'refunded', 'failed', 'canceled'],
  funded: ['completed', 'claimable', 'failed', 'refunded'],
  claimable: ['completed', 'failed'],
  completed: [],
  failed: [],
  canceled: [],
  refunded: [],
};

describe('v2 order state machine', () => {
  const pairs = orderStatuses.flatMap((from) => orderStatuses.map((to) => [from, to] as const));

  it.each(pairs)('%s → %s is legal exactly when the table says so', (from, to) => {
    expect(canTransition(from, to)).toBe(legal[from].includes(to));
  });

  it('has no move out of a final status', () => {
    for (const from of finalStatuses) expect(legal[from]).toEqual([]);
    for (const from of finalStatuses) for (const to of orderStatuses) expect(canTransition(from, to)).toBe(false);
  });

  const actionCases = (Object.keys(orderActions) as OrderAction[]).flatMap((action) => orderStatuses.map((from) => [action, from] as const));

  it.each(actionCases)('%s from %s applies when allowed and is refused otherwise', (action, from) => {
    const rule = orderActions[action];
    if (rule.from.includes(from)) {
      const to = transition(from, action);
      expect(to).toBe(rule.to);
      expect(canTransition(from, to)).toBe(true);
    } else {
      let refusal: unknown;
      try {
        transition(from, action);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(Problem);
      expect((refusal as Problem).slug).toBe(action === 'cancel' ? 'order-not-cancelable' : 'conflict');
    }
  });

  it('reaches every legal transition through some action', () => {
    const reached = new Set((Object.keys(orderActions) as OrderAction[]).flatMap((a) => orderActions[a].from.map((f) => `${f}→${orderActions[a].to}`)));
    const expected = new Set(pairs.filter(([f, t]) => legal[f].includes(t)).map(([f, t]) => `${f}→${t}`));
    expect(reached).toEqual(expected);
  });
});

describe('where the order simulators apply (simulateDeposit, simulateOrder; the console offers the same)', () => {
  const types = ['onramp', 'offramp', 'swap'] as const;
  const where = (simulation: keyof typeof orderSimulations) =>
    types.flatMap((type) => orderStatuses.filter((status) => orderSimulationApplies(type, status, simulation)).map((status) => `${type} ${status}`));

  it('a deposit funds a created onramp only; confirmSourceFunds a created offramp or swap', () => {
    expect(where('deposit')).toEqual(['onramp created']);
    expect(where('confirmSourceFunds')).toEqual(['offramp created', 'swap created']);
  });

  it('replaceFundingInstructions, changing no status, applies to created orders; the others from their move', () => {
    expect(where('replaceFundingInstructions')).toEqual(types.map((type) => `${type} created`));
    for (const simulation of ['deliver', 'makeClaimable', 'completeClaim', 'fail', 'expireFunding', 'refund'] as const) {
      expect(where(simulation), simulation).toEqual(types.flatMap((type) => orderActions[simulation].from.map((status) => `${type} ${status}`)));
    }
  });
});
