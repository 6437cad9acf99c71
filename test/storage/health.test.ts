/**
 * What counts as the database being unavailable (server/storage/health.ts), engine by
 * engine, and that an outage is told once when it begins and once when it ends.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatabaseHealth, isDatabaseUnavailable, type AvailabilityChange } from '../../server/storage/health.ts';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  const unavailable: [string, Error][] = [
    ['a refused connection', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', coded('ECONNRESET')],
    ['a refused connection on every address', new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')])],
    ['node-postgres: the server went away', new Error('Connection terminated unexpectedly')],
    ['node-postgres: a client whose connection broke', new Error('Client has encountered a connection error and is not queryable')],
    ['node-postgres: no connection within the timeout', new Error('timeout exceeded when trying to connect')],
    ['PostgreSQL 57P01: terminated by an administrator (pg_terminate_backend, a fast shutdown)', coded('57P01', 'terminating connection due to administrator command')],
    ['PostgreSQL 57P02: crash shutdown', coded('57P02')],
    ['PostgreSQL 57P03: starting up or shutting down', coded('57P03', 'the database system is starting up')],
    ['PostgreSQL 57P05: idle session timeout', coded('57P05')],
    ['PostgreSQL 08006: connection failure', coded('08006')],
    ['PostgreSQL 53100: disk full', coded('53100')],
    ['PostgreSQL 53300: too many connections', coded('53300')],
    ['SQLite: disk full', coded('SQLITE_FULL', 'database or disk is full')],
    ['SQLite: read-only', coded('SQLITE_READONLY', 'attempt to write a readonly database')],
    ['SQLite: read-only, file moved', coded('SQLITE_READONLY_DBMOVED')],
    ['SQLite: an I/O error', coded('SQLITE_IOERR_WRITE')],
    ['SQLite: cannot open', coded('SQLITE_CANTOPEN')],
    ['SQLite: still locked after the busy timeout', coded('SQLITE_BUSY', 'database is locked')],
  ];
  const other: [string, unknown][] = [
    ['a unique violation (PostgreSQL)', coded('23505')],
    ['a unique violation (SQLite)', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['a syntax error', coded('42601')],
    ['a serialization failure', coded('40001')],
    ['a lock not available', coded('55P03')],
    ['SQLite: a corrupt file', coded('SQLITE_CORRUPT')],
    ['SQLite: no transaction to roll back', coded('SQLITE_ERROR', 'cannot rollback - no transaction is active')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ];
  it.each(unavailable)('%s is an outage', (_, error) => expect(isDatabaseUnavailable(error)).toBe(true));
  it.each(other)('%s is not', (_, error) => expect(isDatabaseUnavailable(error)).toBe(false));

});

describe('DatabaseHealth', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells an outage once when it begins and once when it ends, however often it is met', () => {
    vi.useFakeTimers();
    const changes: AvailabilityChange[] = [];
    const health = new DatabaseHealth((change) => changes.push(change));
    health.recovered();
    expect(health.failed(coded('23505'))).toBe(false);
    expect(health.available).toBe(true);
    for (let i = 0; i < 5; i++) expect(health.failed(coded('ECONNREFUSED'))).toBe(true);
    health.lost(new Error('Connection terminated unexpectedly'));
    expect(health.available).toBe(false);
    vi.advanceTimersByTime(1000);
    health.recovered();
    health.recovered();
    expect(health.available).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(changes).toEqual([
      { available: false, error: expect.objectContaining({ code: 'ECONNREFUSED' }) },
      { available: true, unavailableMs: 1000 },
    ]);
  });

  it('tells no end while the database fails again soon after working (a full disk takes the writes that fit)', () => {
    vi.useFakeTimers();
    const changes: AvailabilityChange[] = [];
    const health = new DatabaseHealth((change) => changes.push(change));
    for (let i = 0; i < 10; i++) {
      health.failed(coded('SQLITE_FULL'));
      vi.advanceTimersByTime(100);
      health.recovered();
      vi.advanceTimersByTime(100);
    }
    expect(changes).toEqual([{ available: false, error: expect.objectContaining({ code: 'SQLITE_FULL' }) }]);
    vi.advanceTimersByTime(60_000);
    expect(changes).toEqual([
      { available: false, error: expect.objectContaining({ code: 'SQLITE_FULL' }) },
      { available: true, unavailableMs: 1900 },
    ]);
  });
});
