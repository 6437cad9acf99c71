/**
 * The states of a payment account (the contract's PaymentAccount.status and
 * RailDirectionStatus): each direction of each rail moves on its own, and the account's
 * status follows from them.
 */
import type { components } from '../../../generated/types/ramp.ts';
import { everyValueOf } from '../../shared/contractEnums.ts';
import { defineMachine } from '../../shared/machine.ts';

type Schemas = components['schemas'];
export type PaymentAccount = Schemas['PaymentAccount'];
export type Rail = Schemas['Rail'];
/** A rail's directions: the fields of PaymentAccountRail that hold a RailDirectionStatus. */
export type Direction = {
  [K in keyof Schemas['PaymentAccountRail']]-?: NonNullable<Schemas['PaymentAccountRail'][K]> extends Schemas['RailDirectionStatus'] ? K : never;
}[keyof Schemas['PaymentAccountRail']];
export type DirectionStatus = Schemas['RailDirectionStatus'];
export type Rails = Partial<Record<Rail, Schemas['PaymentAccountRail']>>;

export const directions = everyValueOf<Direction>()(['source', 'destination']);
export const directionStatuses = everyValueOf<DirectionStatus>()(['pending', 'ready', 'disabled']);

/**
 * What moves one direction of a rail: the rail verifying it, the account disabled or
 * enabled (enabling sends it through verification again). The sandbox's setRailStatus
 * (SimulatePaymentAccountRequest) sets any status instead, as a rail may.
 */
export type DirectionAction = 'verify' | 'disable' | 'enable';

export const directionMachine = defineMachine<DirectionStatus, DirectionAction>({
  states: directionStatuses,
  moves: {
    verify: { from: ['pending'], to: 'ready' },
    disable: { from: ['pending', 'ready'], to: 'disabled' },
    enable: { from: ['disabled'], to: 'pending' },
  },
  staysAllowed: true,
});

/** `ready` once any direction is ready, `pending` otherwise; `disabled` overrides both. */
export function accountStatus(rails: Rails, disabled: boolean): PaymentAccount['status'] {
  if (disabled) return 'disabled';
  const ready = Object.values(rails).some((rail) => directions.some((d) => rail?.[d] === 'ready'));
  return ready ? 'ready' : 'pending';
}

export const mapDirections = (rails: Rails, f: (status: DirectionStatus) => DirectionStatus): Rails =>
  Object.fromEntries(
    Object.entries(rails).map(([rail, state]) => [
      rail,
      { ...state, ...Object.fromEntries(directions.filter((d) => state?.[d] !== undefined).map((d) => [d, f(state![d]!)])) },
    ]),
  );

/** An action applied to every direction of every rail: those it does not apply to keep their status. */
export const moveDirections = (rails: Rails, action: DirectionAction): Rails =>
  mapDirections(rails, (status) => {
    const decision = directionMachine.decide(status, action);
    return decision.allowed ? decision.to : status;
  });
