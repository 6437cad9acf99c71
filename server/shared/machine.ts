/**
 * The one shape of every state machine of the service (v2 orders, payment account
 * directions, verifications, v1 orders, swaps and bank accounts): its statuses, bound to the
 * contract's enum by `everyValueOf`, and one table of moves, action → the statuses it
 * leaves from and the status it leads to. `decide` reads that table and nothing else, so the
 * table drives both the change and the documented refusal, and a status change cannot be
 * made that the table does not hold.
 *
 * Pure: no storage, no HTTP, no problem thrown. A feature words its refusal (slug and
 * detail, as the contract documents them for its operations) from the decision, because the
 * same refusal reads differently per operation (an order's cancel is `order-not-cancelable`,
 * a v1 KYB refusal speaks v1 statuses). The change itself is applied by
 * features/stateChange.ts: lock → decide → write → record the event, in one transaction.
 */

/** A move: the statuses an action applies to, and where it leads. */
export interface Move<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

/**
 * What an action does from a status: it leads to `to` (`moved` false when `to` is where the
 * object already is: a stay, which changes no status and sends no status event), or it is
 * refused, with the statuses it would have needed.
 */
export type Decision<S extends string> =
  | { readonly allowed: true; readonly to: S; readonly moved: boolean }
  | { readonly allowed: false; readonly from: S; readonly needs: readonly S[] };

export interface Machine<S extends string, A extends string> {
  readonly states: readonly S[];
  /** The table. An action with no entry applies from no status (a v1 onramp is never burned). */
  readonly moves: Readonly<Partial<Record<A, Move<S>>>>;
  decide(from: S, action: A): Decision<S>;
  /** Whether some action moves `from` to `to`; a stay is not a move. */
  canMove(from: S, to: S): boolean;
  /** Every `from→to` the table allows, for tests and documentation. */
  readonly arrows: ReadonlySet<string>;
}

export interface MachineDefinition<S extends string, A extends string> {
  states: readonly S[];
  moves: Partial<Record<A, Move<S>>>;
  /**
   * When true, an action whose target is the current status is a stay from any status
   * (a verification asked for the status it has; a v1 bank account set to its status): it
   * is allowed and changes nothing. Otherwise only the table's `from` lists allow it.
   */
  staysAllowed?: boolean;
}

export function defineMachine<S extends string, A extends string>(definition: MachineDefinition<S, A>): Machine<S, A> {
  const { states, moves, staysAllowed = false } = definition;
  const entries = Object.values(moves) as Move<S>[];
  const arrows = new Set(entries.flatMap(({ from, to }) => from.filter((f) => f !== to).map((f) => `${f}→${to}`)));
  return {
    states,
    moves,
    arrows,
    decide(from, action) {
      const move = moves[action];
      if (move && staysAllowed && move.to === from) return { allowed: true, to: from, moved: false };
      if (move?.from.includes(from)) return { allowed: true, to: move.to, moved: move.to !== from };
      return { allowed: false, from, needs: move?.from ?? [] };
    },
    canMove: (from, to) => arrows.has(`${from}→${to}`),
  };
}
