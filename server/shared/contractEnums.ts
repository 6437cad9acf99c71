/**
 * A contract enum as a runtime list. The values belong to the contract (generated/types);
 * the list exists because code iterates them (state-machine tables, their tests), and tsc
 * refuses one that names a value the contract lacks or leaves out one it has, so the two
 * cannot drift apart.
 *
 *   export const orderStatuses = everyValueOf<OrderStatus>()(['created', 'funded', …]);
 */
export function everyValueOf<T extends string>() {
  return <const L extends readonly T[]>(values: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> })): L => values;
}
