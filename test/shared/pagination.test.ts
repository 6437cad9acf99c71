import { describe, expect, it } from 'vitest';
import { pageMeta, v1Page } from '../../server/shared/pagination.ts';
import { Problem } from '../../server/shared/problems.ts';

describe('v1 pagination bodies', () => {
  it('default to page 0 of 30 when empty', () => {
    expect(v1Page(undefined)).toEqual({ size: 30, number: 0 });
    expect(v1Page({})).toEqual({ size: 30, number: 0 });
    expect(v1Page({ filters: null })).toEqual({ size: 30, number: 0 });
  });

  it('refuse more than 100 and 0 with v1.yaml\'s messages', () => {
    expect(() => v1Page({ pageSize: 101 })).toThrow(new Problem('invalid-request', 'You can only request 100 items at a time'));
    expect(() => v1Page({ pageSize: 0 })).toThrow(new Problem('invalid-request', 'Page size must be greater than 0'));
    expect(v1Page({ pageSize: 100 }).size).toBe(100);
  });

  it('carry the date filters in UTC', () => {
    expect(v1Page({ filters: { fromDate: '2026-01-01T00:00:00-06:00' } })).toMatchObject({ from: '2026-01-01T06:00:00.000Z' });
  });

  it('read a leap second as the second after it, and refuse what names no instant as the validator does (shared/dateTime.ts)', () => {
    expect(v1Page({ filters: { fromDate: '2026-06-30T23:59:60Z', toDate: '2026-12-31T23:59:60Z' } })).toMatchObject({ from: '2026-07-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' });
    expect(() => v1Page({ filters: { fromDate: '2026-13-01T00:00:00Z' } })).toThrow(new Problem('invalid-request', 'filters.fromDate must match format "date-time"'));
    expect(() => v1Page({ filters: { fromDate: '2026-01-01T00:00:00Z', toDate: '2026-12-01T00:00:00+99:99' } })).toThrow(new Problem('invalid-request', 'filters.toDate must match format "date-time"'));
  });
});

describe('page envelopes', () => {
  it('count pages, with an empty last page past the end', () => {
    expect(pageMeta({ size: 30, number: 0 }, 0)).toEqual({ totalItems: 0, pageSize: 30, pageNumber: 0, totalPages: 0 });
    expect(pageMeta({ size: 30, number: 5 }, 61)).toEqual({ totalItems: 61, pageSize: 30, pageNumber: 5, totalPages: 3 });
  });
});
