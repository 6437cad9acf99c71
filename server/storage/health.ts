/**
 * Whether the database can be reached, for the answers and the log. A database that goes
 * away (a PostgreSQL restart or failover, sessions terminated, a connection refused; an
 * SQLite file that is full, read-only or unreadable) is a fault of the moment, not of the
 * request: requests meet it as the documented 503 with `Retry-After` (http/errors.ts), jobs
 * try again on their next run, and the process lives on. Engines' errors are told apart
 * here, where the engines are known; the HTTP side only renders the answer.
 *
 * An outage is logged once when it begins and once when it ends, however many requests and
 * job runs meet it: the first failure that is an outage begins it (`failed`), and the
 * storage itself ends it when the database works again and keeps working (`recovered`: on
 * PostgreSQL a new connection accepted, on SQLite a write committed; database.ts).
 */

/** Seconds a client is told to wait (`Retry-After`) before trying again during an outage. */
export const retryAfterSeconds = 1;

/** Node's network errors while reaching a database server. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs of a server that cannot serve now: class 08 (connection
 * exception), class 53 (insufficient resources: disk full, out of memory, too many
 * connections), 57P01 to 57P03 and 57P05 (an administrator's or a crash's shutdown, not
 * accepting connections yet, an idle session ended), 58030 (an I/O error).
 */
const postgresStates = /^(08...|53...|57P0[1235]|58030)$/;

/** The errors node-postgres makes itself when its connection is gone or cannot be had. */
const postgresClientMessages = /^(Connection terminated|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect)/;

/**
 * SQLite's result codes (better-sqlite3 gives the extended one) of a file that cannot be
 * written or read now: full (the disk, or `max_page_count`), read-only (the file, the
 * folder, `query_only`), an I/O error, a file that cannot be opened, and a lock still held
 * by another process once the busy timeout has passed.
 */
const sqliteCodes = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY)(_|$)/;

/** True when `error` says the database is unreachable or cannot take writes, not that the request was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (networkCodes.has(code) || postgresStates.test(code) || sqliteCodes.test(code))) return true;
  if (postgresClientMessages.test(error.message)) return true;
  // Node reports a connection tried on several addresses as one AggregateError.
  return error instanceof AggregateError && error.errors.some(isDatabaseUnavailable);
}

export type AvailabilityChange = { available: false; error: Error } | { available: true; unavailableMs: number };

/**
 * How long the database must work without failing again before an outage is told ended. A
 * full disk fails only the writes that need room, and the others go through: without this
 * wait such an outage would be told over and over, once per write that fits.
 */
const settleMs = 2000;

export class DatabaseHealth {
  /** When the outage began (undefined: none). */
  #since: number | undefined;
  /** During an outage: when the database last worked again, the end told once it holds. */
  #working: { at: number; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly report: (change: AvailabilityChange) => void = () => {}) {}

  /** False from the failure that begins an outage until the database works again. */
  get available(): boolean {
    return this.#since === undefined || this.#working !== undefined;
  }

  /** When `error` is an outage: marks the database unavailable (told once per outage) and answers true. */
  failed(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.lost(error as Error);
    return true;
  }

  /** A connection broke, whatever its error says: the database is unavailable until it works again. */
  lost(error: Error): void {
    if (this.#working) {
      clearTimeout(this.#working.timer);
      this.#working = undefined;
    }
    if (this.#since !== undefined) return;
    this.#since = Date.now();
    this.report({ available: false, error });
  }

  /** The database worked (a connection accepted, a write committed): the outage ends once it keeps working. */
  recovered(): void {
    if (this.#since === undefined || this.#working) return;
    const at = Date.now();
    const timer = setTimeout(() => {
      const unavailableMs = at - this.#since!;
      this.#since = undefined;
      this.#working = undefined;
      this.report({ available: true, unavailableMs });
    }, settleMs);
    timer.unref();
    this.#working = { at, timer };
  }
}
