/**
 * Queries compiled once. Kysely builds a query's tree and compiles it to SQL on every
 * call, and for the queries every request of a hot operation makes (GET /orders: its counter
 * and its page; getOrder: the order, the organization acted for; createQuote and createOrder:
 * their reads and inserts) that cost more CPU than running the query on SQLite. Their SQL
 * depends only on the query's shape, never on the request: it is compiled once per database
 * and shape, and each call passes its values. A transaction opened by `inTransaction`
 * (positions.ts) shares its database's queries: same dialect, same SQL.
 * A cache of derived SQL text, not state (apiKeys/repository.ts does the same for the key).
 * It holds the floor "≥ 2× Prism mock on every throughput scenario" for quote + order, the
 * scenario with the least margin (bench/README.md, the audit).
 */
import type { CompiledQuery, Compilable, QueryResult } from 'kysely';
import type { Db, Tx } from './database.ts';

const compiledQueries = new WeakMap<Db | Tx, Map<string, CompiledQuery>>();

function queriesOf(db: Db | Tx) {
  let byShape = compiledQueries.get(db);
  if (!byShape) compiledQueries.set(db, (byShape = new Map()));
  return byShape;
}

/** `tx`, a transaction of `db`, runs the queries compiled for `db` (and adds to them). */
export function shareCompiled(db: Db | Tx, tx: Tx): void {
  compiledQueries.set(tx, queriesOf(db));
}

/**
 * Runs the query `build` makes (with any values: they are replaced) with `parameters`, in
 * the order the query's placeholders take them. `shape` names what `build` makes: two
 * builds with one shape must compile to the same SQL.
 */
export async function runCompiledQuery<R>(db: Db | Tx, shape: string, build: () => Compilable<R>, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  const byShape = queriesOf(db);
  let compiled = byShape.get(shape);
  if (!compiled) {
    compiled = build().compile();
    // A wrong `parameters` list would bind values to the wrong columns: refuse it at once.
    if (compiled.parameters.length !== parameters.length) throw new Error(`${shape}: the query takes ${compiled.parameters.length} values, not ${parameters.length}`);
    byShape.set(shape, compiled);
  }
  return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
}

/** runCompiledQuery's rows. */
export async function runCompiled<R>(db: Db | Tx, shape: string, build: () => Compilable<R>, parameters: readonly unknown[]): Promise<R[]> {
  return (await runCompiledQuery(db, shape, build, parameters)).rows;
}

/**
 * An insert of `row`, compiled once per table and set of columns: `build` inserts the row
 * it is given. Kysely leaves out a column whose value is undefined, and so does this.
 * Answers the number of rows inserted (0 when an ON CONFLICT … DO NOTHING kept another).
 */
export async function insertCompiled<Row extends object>(db: Db | Tx, shape: string, row: Row, build: (row: Row) => Compilable<unknown>): Promise<number> {
  const columns = Object.keys(row).filter((column) => (row as Record<string, unknown>)[column] !== undefined);
  const parameters = columns.map((column) => (row as Record<string, unknown>)[column]);
  const result = await runCompiledQuery(db, `${shape} (${columns.join(',')})`, () => build(row), parameters);
  return Number(result.numAffectedRows ?? 0);
}
