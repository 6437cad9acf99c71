import { describe, expect, it } from 'vitest';
import { displayPrefix, formatApiKey, hashApiKey, hashMatches, newKeyId, newSalt, parseApiKey } from '../../../server/features/apiKeys/rules.ts';

const org = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('API keys', () => {
  it('parse only the full three-segment form', () => {
    const keyId = newKeyId();
    expect(parseApiKey(`api_sand:${keyId}:${org}`)).toEqual({ raw: `api_sand:${keyId}:${org}`, env: 'sand', keyId, organizationId: org });
    expect(parseApiKey(`api_prod:${keyId}:${org}`)?.env).toBe('prod');
    for (const bad of [
      `Bearer api_sand:${keyId}:${org}`,
      `api_test:${keyId}:${org}`,
      `api_sand:${keyId}`,
      `api_sand::${org}`,
      `api_sand:${keyId}:not-a-uuid`,
      `api_sand:${keyId}:${org}:extra`,
      '',
    ]) {
      expect(parseApiKey(bad), bad).toBeUndefined();
    }
  });

  it('hash with the organization salt, so a key only matches under its own organization', () => {
    const raw = formatApiKey('sand', newKeyId(), org);
    const salt = newSalt();
    const stored = hashApiKey(raw, salt);
    expect(stored).not.toContain(raw);
    expect(hashMatches(raw, salt, stored)).toBe(true);
    expect(hashMatches(raw, newSalt(), stored)).toBe(false);
    expect(hashMatches(raw + 'x', salt, stored)).toBe(false);
  });

  it('display the first 16 characters only', () => {
    const raw = formatApiKey('sand', newKeyId(), org);
    expect(displayPrefix(raw)).toHaveLength(16);
    expect(raw.startsWith(displayPrefix(raw))).toBe(true);
  });
});
