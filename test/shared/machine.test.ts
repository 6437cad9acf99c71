/**
 * The one machine shape (server/shared/machine.ts), checked on every machine of the service:
 * `decide` answers exactly what the table says, from every status for every action, and
 * `canMove` is the table's arrows, stays left out. Each machine's own file
 * (orderMachine, v1Machines, verificationMachine) checks its table against the contract.
 */
import { describe, expect, it } from 'vitest';
import { defineMachine, type Machine } from '../../server/shared/machine.ts';
import { orderMachine } from '../../server/features/orders/machine.ts';
import { directionMachine, directionStatuses, moveDirections } from '../../server/features/paymentAccounts/machine.ts';
import { verificationMachine } from '../../server/features/verification/machine.ts';
import { v1OrderMachines } from '../../server/features/v1/orders/machine.ts';
import { v1SwapMachine } from '../../server/features/v1/swaps/machine.ts';
import { v1BankAccountMachine } from '../../server/features/v1/bankAccounts/machine.ts';

const machines: Record<string, { machine: Machine<string, string>; actions: readonly string[]; stays: boolean }> = {
  'v2 order': { machine: orderMachine, actions: Object.keys(orderMachine.moves), stays: false },
  'payment account direction': { machine: directionMachine, actions: ['verify', 'disable', 'enable'], stays: true },
  verification: { machine: verificationMachine, actions: verificationMachine.states, stays: true },
  'v1 onramp': { machine: v1OrderMachines.onramp, actions: Object.keys(v1OrderMachines.offramp.moves).concat(Object.keys(v1OrderMachines.onramp.moves)), stays: false },
  'v1 offramp': { machine: v1OrderMachines.offramp, actions: Object.keys(v1OrderMachines.onramp.moves).concat(Object.keys(v1OrderMachines.offramp.moves)), stays: false },
  'v1 swap': { machine: v1SwapMachine, actions: Object.keys(v1SwapMachine.moves), stays: false },
  'v1 bank account': { machine: v1BankAccountMachine, actions: v1BankAccountMachine.states, stays: true },
};

describe.each(Object.entries(machines))('the %s machine', (_, { machine, actions, stays }) => {
  const cases = machine.states.flatMap((from) => actions.map((action) => [from, action] as const));

  it.each(cases)('from %s, %s is decided by the table alone', (from, action) => {
    const move = machine.moves[action];
    const decision = machine.decide(from, action);
    if (move && ((stays && move.to === from) || move.from.includes(from))) {
      expect(decision).toEqual({ allowed: true, to: move.to, moved: move.to !== from });
    } else {
      expect(decision).toEqual({ allowed: false, from, needs: move?.from ?? [] });
    }
  });

  it('moves from → to exactly along the arrows of its table, a stay being no move', () => {
    for (const from of machine.states) {
      for (const to of machine.states) {
        const arrow = from !== to && Object.values(machine.moves).some((move) => move!.to === to && move!.from.includes(from));
        expect(machine.canMove(from, to), `${from}→${to}`).toBe(arrow);
      }
    }
  });
});

describe('defineMachine', () => {
  const light = defineMachine<'red' | 'green', 'go' | 'stop' | 'hold'>({
    states: ['red', 'green'],
    moves: { go: { from: ['red'], to: 'green' }, stop: { from: ['green'], to: 'red' } },
  });

  it('refuses an action without an entry from every status, needing nothing', () => {
    expect(light.decide('red', 'hold')).toEqual({ allowed: false, from: 'red', needs: [] });
  });

  it('refuses asking for the current status unless stays are allowed', () => {
    expect(light.decide('green', 'go')).toEqual({ allowed: false, from: 'green', needs: ['red'] });
    const stays = defineMachine({ states: light.states, moves: light.moves, staysAllowed: true });
    expect(stays.decide('green', 'go')).toEqual({ allowed: true, to: 'green', moved: false });
  });
});

describe('payment account directions', () => {
  it.each(directionStatuses)('from %s: verify readies only pending, disable disables all, enable sends disabled back to pending', (status) => {
    const rails = { spei: { destination: status, minAmount: '1.00', maxAmount: '2.00' } };
    expect(moveDirections(rails, 'verify').spei?.destination).toBe(status === 'pending' ? 'ready' : status);
    expect(moveDirections(rails, 'disable').spei?.destination).toBe('disabled');
    expect(moveDirections(rails, 'enable').spei?.destination).toBe(status === 'disabled' ? 'pending' : status);
  });
});
