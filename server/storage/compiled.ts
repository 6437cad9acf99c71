/**
 * Read queries compiled once. Kysely builds a query's tree and compiles it to SQL on every
 * call, and for the reads every request of a hot operation makes (GET /orders: its counter
 * and its page; getOrder: the order, the organization acted for) that cost more CPU than
 * running the query on SQLite. Their SQL depends only on the query's shape, never on the
 * request: it is compiled once per database and shape, and each call passes its values.
 * A cache of derived SQL text, not state (apiKeys/repository.ts does the same for the key).
 */
import type { CompiledQuery, Compilable } from 'kysely';
import type { Db, Tx } from './database.ts';

const compiledQueries = new WeakMap<Db | Tx, Map<string, CompiledQuery>>();

/**
 * Runs the query `build` makes (with any values: they are replaced) with `parameters`, in
 * the order the query's placeholders take them. `shape` names what `build` makes: two
 * builds with one shape must compile to the same SQL.
 */
export async function runCompiled<R>(db: Db | Tx, shape: string, build: () => Compilable<R>, parameters: readonly unknown[]): Promise<R[]> {
  let byShape = compiledQueries.get(db);
  if (!byShape) compiledQueries.set(db, (byShape = new Map()));
  let compiled = byShape.get(shape);
  if (!compiled) {
    compiled = build().compile();
    // A wrong `parameters` list would bind values to the wrong columns: refuse it at once.
    if (compiled.parameters.length !== parameters.length) throw new Error(`${shape}: the query takes ${compiled.parameters.length} values, not ${parameters.length}`);
    byShape.set(shape, compiled);
  }
  const { rows } = await db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
  return rows;
}
