/**
 * Every date-time a client sends (the contract's `format: date-time`) read in one place, so
 * that what the request validator accepts is exactly what the service can read: app.ts gives
 * `isDateTime` to express-openapi-validator as the `date-time` format, and the use cases read
 * the accepted text with `parseDateTime` (the Dates and identifiers sections of v1.yaml and v2.yaml).
 *
 * The text is RFC 3339's `date-time` (§5.6): `T` and `Z` in either case, an offset `±hh:mm`,
 * any number of fractional digits, of which the service keeps milliseconds (the rest are
 * dropped, never rounded up). It must name a real instant: a month has its days (29 February
 * in leap years only), hours go to 23, minutes and seconds to 59, an offset to ±23:59. ajv's
 * own check (ajv-formats, fast mode) takes month 13, day 39, hour 29 or offset +99:99, which
 * `new Date()` cannot read; its full mode checks the calendar but takes spellings RFC 3339 has
 * not (a space for `T`, an offset `+01`) and gives no instant, so this is read here.
 *
 * A leap second, second 60, is accepted only where UTC inserts one: at 23:59:60 UTC on the
 * last day of a month (RFC 3339 §5.7, Appendix D). JavaScript's time, like POSIX time, has
 * no 61st second, so it is read as the second after it: 2026-12-31T23:59:60.250Z is
 * 2027-01-01T00:00:00.250Z. The instant, in UTC, must fall within the years 0000 to 9999,
 * those RFC 3339 can write: an offset cannot carry it out of them (stored instants are
 * compared as their ISO 8601 text, which orders only within those years).
 */

const grammar = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const firstMs = new Date(0).setUTCFullYear(0, 0, 1);
const lastMs = new Date(0).setUTCFullYear(9999, 11, 31) + 86_400_000 - 1;

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** The instant a client's date-time names, or undefined when it names none (the surface's 400). */
export function parseDateTime(text: string): Date | undefined {
  const match = grammar.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const sign = match[8] === '-' ? -1 : 1;
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offsetMs = sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, Math.min(second, 59), ms);
  const utc = local.getTime() - offsetMs;
  if (second === 60) {
    const at = new Date(utc);
    const lastOfMonth = new Date(utc + 86_400_000).getUTCDate() === 1;
    if (at.getUTCHours() !== 23 || at.getUTCMinutes() !== 59 || !lastOfMonth) return undefined;
  }
  const instant = second === 60 ? utc + 1000 : utc;
  if (instant < firstMs || instant > lastMs) return undefined;
  return new Date(instant);
}

/** The `date-time` format of the request and response validators: a text `parseDateTime` reads. */
export const isDateTime = (text: string) => parseDateTime(text) !== undefined;
