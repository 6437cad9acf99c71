/** A UUID's string form in either case, and its one canonical spelling (server/shared/uuid.ts). */
import { describe, expect, it } from 'vitest';
import { canonicalUuid, isUuid } from '../../server/shared/uuid.ts';

const id = '1c6f7a2e-84d3-4f0b-a5e9-0d2c3b4a5f61';

describe('UUIDs', () => {
  it.each([
    ['canonical', id],
    ['upper case', id.toUpperCase()],
    ['mixed case', '1C6f7A2e-84D3-4f0B-a5E9-0d2C3b4A5f61'],
  ])('%s: %s is the UUID, spelled in lower case', (_, text) => {
    expect(isUuid(text)).toBe(true);
    expect(canonicalUuid(text)).toBe(id);
  });

  // ajv-formats takes the URN as a `uuid`; JSON Schema validators elsewhere (generated clients, Schemathesis) do not.
  it.each([
    ['the URN', `urn:uuid:${id}`],
    ['the URN in upper case', `URN:UUID:${id.toUpperCase()}`],
    ['no hyphens', id.replaceAll('-', '')],
    ['braces', `{${id}}`],
    ['a short group', '1c6f7a2e-84d3-4f0b-a5e9-0d2c3b4a5f6'],
    ['a letter past f', '1c6f7a2e-84d3-4f0b-a5e9-0d2c3b4a5f6g'],
    ['text around it', ` ${id}`],
    ['a trailing line feed', `${id}\n`],
    ['empty', ''],
  ])('%s: %s is not its string form', (_, text) => {
    expect(isUuid(text)).toBe(false);
    expect(canonicalUuid(text)).toBeUndefined();
  });
});
