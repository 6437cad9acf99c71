/** The one reading of a client's date-time (server/shared/dateTime.ts), spelling by spelling. */
import { describe, expect, it } from 'vitest';
import { isDateTime, parseDateTime } from '../../server/shared/dateTime.ts';

describe('date-times that name an instant', () => {
  it.each([
    ['UTC', '2026-11-22T13:00:00Z', '2026-11-22T13:00:00.000Z'],
    ['UTC with milliseconds', '2026-11-22T13:00:00.000Z', '2026-11-22T13:00:00.000Z'],
    ['lower-case t and z', '2026-11-22t13:00:00z', '2026-11-22T13:00:00.000Z'],
    ['an offset', '2026-01-01T00:00:00-06:00', '2026-01-01T06:00:00.000Z'],
    ['the widest offset ahead of UTC', '2026-01-01T00:00:00+23:59', '2025-12-31T00:01:00.000Z'],
    ['the widest offset behind UTC', '2026-01-01T00:00:00-23:59', '2026-01-01T23:59:00.000Z'],
    ['digits past milliseconds are dropped, never rounded up', '2026-01-01T00:00:00.999999999Z', '2026-01-01T00:00:00.999Z'],
    ['one fractional digit', '2026-01-01T00:00:00.5Z', '2026-01-01T00:00:00.500Z'],
    ['29 February of a leap year', '2028-02-29T12:00:00Z', '2028-02-29T12:00:00.000Z'],
    ['29 February of a year divisible by 400', '2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['the first instant RFC 3339 writes', '0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['a year below 100 is that year, not 19xx', '0099-06-15T00:00:00Z', '0099-06-15T00:00:00.000Z'],
    ['the last instant RFC 3339 writes', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    // A leap second is the second after it, as POSIX time reads it.
    ['a leap second at the end of December', '2026-12-31T23:59:60Z', '2027-01-01T00:00:00.000Z'],
    ['a leap second at the end of June', '2026-06-30T23:59:60Z', '2026-07-01T00:00:00.000Z'],
    ['a leap second with a fraction', '2016-12-31T23:59:60.250Z', '2017-01-01T00:00:00.250Z'],
    ['a leap second written with an offset (RFC 3339 §5.8)', '1990-12-31T15:59:60-08:00', '1991-01-01T00:00:00.000Z'],
    ['a leap second at the end of any month', '2026-03-31T23:59:60Z', '2026-04-01T00:00:00.000Z'],
  ])('%s: %s is %s', (_, text, instant) => {
    expect(parseDateTime(text)?.toISOString()).toBe(instant);
    expect(isDateTime(text)).toBe(true);
  });
});

describe('date-times that name no instant', () => {
  it.each([
    ['month 13', '2026-13-01T00:00:00Z'],
    ['month 0', '2026-00-10T00:00:00Z'],
    ['day 39', '2026-12-39T00:00:00Z'],
    ['day 0', '2026-12-00T00:00:00Z'],
    ['31 April', '2026-04-31T00:00:00Z'],
    ['29 February of a common year', '2026-02-29T00:00:00Z'],
    ['29 February of a year divisible by 100 only', '1900-02-29T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['hour 29', '2026-12-01T29:00:00Z'],
    ['minute 60', '2026-01-01T00:60:00Z'],
    ['offset +99:99', '2026-12-01T00:00:00+99:99'],
    ['offset hour 24', '2026-12-01T00:00:00+24:00'],
    ['offset minute 60', '2026-12-01T00:00:00+01:60'],
    ['second 61', '2026-12-31T23:59:61Z'],
    ['a leap second that is not at 23:59 UTC', '2026-12-31T22:59:60Z'],
    ['a leap second at 23:59 local time only', '2026-12-31T23:59:60+01:00'],
    ['a leap second before the last day of a month', '2026-12-30T23:59:60Z'],
    ['before year 0000 in UTC', '0000-01-01T00:00:00+00:01'],
    ['after year 9999 in UTC', '9999-12-31T23:59:59-00:01'],
    ['a leap second into year 10000', '9999-12-31T23:59:60Z'],
    ['no offset', '2026-01-01T00:00:00'],
    ['an offset without its colon', '2026-01-01T00:00:00+0100'],
    ['an offset of hours only', '2026-01-01T00:00:00+01'],
    ['a space for T', '2026-01-01 00:00:00Z'],
    ['a date only', '2026-01-01'],
    ['a five-digit year', '+02026-01-01T00:00:00Z'],
    ['an empty fraction', '2026-01-01T00:00:00.Z'],
    ['text around it', ' 2026-01-01T00:00:00Z'],
    ['a trailing line feed', '2026-01-01T00:00:00Z\n'],
    ['what JavaScript reads but RFC 3339 does not', 'Tue, 01 Dec 2026 00:00:00 GMT'],
  ])('%s: %s', (_, text) => {
    expect(parseDateTime(text)).toBeUndefined();
    expect(isDateTime(text)).toBe(false);
  });
});
