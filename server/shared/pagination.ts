/** Page envelopes (PageMeta, V1PageMeta) and the v1 pagination body rules (v1.yaml, Pagination). */
import { parseDateTime } from './dateTime.ts';
import { Problem } from './problems.ts';

export const defaultPageSize = 30;
export const maxPageSize = 100;

export interface PageRequest {
  size: number;
  number: number;
}

export interface PageMeta {
  totalItems: number;
  pageSize: number;
  pageNumber: number;
  totalPages: number;
}

/** v2 query parameters; the contract has already checked their range. */
export function v2Page(query: { pageSize?: number; pageNumber?: number }): PageRequest {
  return { size: query.pageSize ?? defaultPageSize, number: query.pageNumber ?? 0 };
}

export function pageMeta(page: PageRequest, totalItems: number): PageMeta {
  return { totalItems, pageSize: page.size, pageNumber: page.number, totalPages: Math.ceil(totalItems / page.size) };
}

export interface V1PaginationBody {
  pageNumber?: number;
  pageSize?: number;
  filters?: { fromDate: string; toDate?: string } | null;
}

/** The v1 body, with the exact messages of v1.yaml's Pagination section; an empty body means defaults. */
export function v1Page(body: V1PaginationBody | undefined): PageRequest & { from?: string; to?: string } {
  const size = body?.pageSize ?? defaultPageSize;
  if (size > maxPageSize) throw new Problem('invalid-request', `You can only request ${maxPageSize} items at a time`);
  if (size <= 0) throw new Problem('invalid-request', 'Page size must be greater than 0');
  const number = body?.pageNumber ?? 0;
  if (number < 0) throw new Problem('invalid-request', 'Page number must be 0 or greater');
  const filters = body?.filters ?? undefined;
  return {
    size,
    number,
    ...(filters?.fromDate ? { from: instant('fromDate', filters.fromDate) } : {}),
    ...(filters?.toDate ? { to: instant('toDate', filters.toDate) } : {}),
  };
}

/** A filter's instant in UTC (shared/dateTime.ts); the validator's message when it names none. */
function instant(field: 'fromDate' | 'toDate', text: string): string {
  const at = parseDateTime(text);
  if (!at) throw new Problem('invalid-request', `filters.${field} must match format "date-time"`);
  return at.toISOString();
}
