/**
 * Whose timers a due query finds. Every timer of the sandbox stays with its object as a
 * due-at column written on the partner's clock (`orders.settle_at`, `payment_accounts.verify_at`,
 * …), so a due query must add one condition on its row's organization: which clock it follows.
 * Here, beside the tables, so each feature's repository can add it without knowing the clock
 * feature, which knows none of them.
 */
import { sql, type SqlBool, type RawBuilder } from 'kysely';

/** One partner's timers (an advance, a partner with an offset), or every partner's on real time. */
export type DueScope = { partnerId: string } | 'onRealTime';

/**
 * The condition a due query adds on its row's organization column: the organization follows
 * the partner's clock, or follows a clock on real time. The latter is a NOT EXISTS on two
 * primary keys per candidate row, so the job's query stays the index range it was.
 */
export function followsClock(organizationColumn: string, scope: DueScope): RawBuilder<SqlBool> {
  const column = sql.ref(organizationColumn);
  if (scope !== 'onRealTime') return sql<SqlBool>`${column} IN (SELECT id FROM organizations WHERE top_id = ${scope.partnerId})`;
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM organizations g JOIN sandbox_clocks c ON c.partner_id = g.top_id WHERE g.id = ${column} AND (c.frozen_at IS NOT NULL OR c.offset_ms <> 0))`;
}
