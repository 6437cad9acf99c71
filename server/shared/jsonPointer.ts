/** RFC 6901 JSON Pointer segments: the pointers of field errors and of the contract's schemas. */

/** A key as one pointer segment: `~` as `~0`, `/` as `~1`. */
export const escapeSegment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** The keys of a pointer (`/a~1b/0` → `['a/b', '0']`); a leading `#` (a URI fragment) is dropped. */
export const segmentsOf = (pointer: string): string[] =>
  pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
