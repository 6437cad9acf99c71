/** The rules every request meets whatever its operation (server/shared/requestLimits.ts), as tables. */
import { describe, expect, it } from 'vitest';
import { maxArrayItems, refusedParameter, refusedParameters, refusedText, refusedValue } from '../../server/shared/requestLimits.ts';

describe('refusedText', () => {
  const nul = /NUL character/;
  const lone = /well-formed Unicode/;
  it.each([
    ['plain ASCII', 'Ana López', undefined],
    ['the empty string', '', undefined],
    ['a surrogate pair (an astral character)', 'a🙂b', undefined],
    ['U+FFFD itself', 'a\ufffdb', undefined],
    ['a NUL', 'a\u0000b', nul],
    ['a NUL alone', '\u0000', nul],
    ['a lone high surrogate', 'a\ud800b', lone],
    ['a lone low surrogate', 'a\udc00b', lone],
    ['a high surrogate at the end', 'ab\udbff', lone],
    ['a pair in the wrong order', '\udc00\ud800', lone],
  ])('%s', (_, text, reason) => {
    const refused = refusedText(text);
    if (reason === undefined) expect(refused).toBeUndefined();
    else expect(refused).toMatch(reason);
  });
});

describe('refusedValue', () => {
  it.each([
    ['a well-formed body', { a: 'x', list: ['y', { z: 'ok 🙂' }], n: 1, b: null }, undefined],
    ['a NUL deep inside', { a: { list: ['ok', 'b\u0000'] } }, '/a/list/1'],
    ['a lone surrogate in a top-level string', 'x\ud800', '/'],
    ['a property name with a NUL, pointed at by its object', { a: { 'k\u0000': 1 } }, '/a'],
    ['a property name with ~ and /, escaped in the pointer', { 'a/b~c': '\u0000' }, '/a~1b~0c'],
    ['an array over the limit', { items: Array.from({ length: maxArrayItems + 1 }, () => 0) }, '/items'],
  ])('%s', (_, value, pointer) => {
    expect(refusedValue(value)?.pointer).toBe(pointer);
  });

  it('checks only text when told no array limit (the claims of a JWT)', () => {
    expect(refusedValue({ aud: Array.from({ length: 500 }, () => 'x') }, Infinity)).toBeUndefined();
  });
});

describe('refusedParameter', () => {
  it.each([
    ['accepted values', { pageSize: '30', origin: 'https://partner.example' }, undefined],
    ['a NUL in a value', { identifier: 'CE\u0000TES' }, 'The path parameter identifier must not contain the NUL character (U+0000).'],
    ['a NUL in one value of a repeated parameter', { amount: ['1', '2\u0000'] }, 'The path parameter amount must not contain the NUL character (U+0000).'],
    ['a NUL in a name', { 'a\u0000': '1' }, 'A path parameter name must not contain the NUL character (U+0000).'],
  ])('%s', (_, parameters, message) => {
    expect(refusedParameter('path', parameters)).toBe(message);
  });
});

describe('refusedParameters', () => {
  it.each([
    ['accepted parameters', { id: 'a' }, '/x/a?pageSize=30&q=%5Ba%5D', undefined],
    // The validator reads `[a` as an object's key and leaves the NUL out of req.query: the query string is read as sent.
    ['a NUL in a bracketed query name', {}, '/x?%5Ba%00=1', { where: 'query', detail: 'A query parameter name must not contain the NUL character (U+0000).' }],
    ['a NUL in a query value', {}, '/x?a=1&b=%00', { where: 'query', detail: 'The query parameter b must not contain the NUL character (U+0000).' }],
    ['a path parameter before the query', { id: 'a\u0000' }, '/x/a%00?b=%00', { where: 'path', detail: 'The path parameter id must not contain the NUL character (U+0000).' }],
    // Names that an ordinary object already has (Schemathesis: `?__proto__=` was a 500 on GET /onramp).
    ['query names an object already has', {}, '/x?__proto__=&constructor=1&toString=&hasOwnProperty=2', undefined],
    ['a NUL in a value of __proto__', {}, '/x?__proto__=1&__proto__=%00', { where: 'query', detail: 'The query parameter __proto__ must not contain the NUL character (U+0000).' }],
  ])('%s', (_, pathParameters, url, expected) => {
    const refused = refusedParameters(pathParameters, url);
    expect(refused && { where: refused.where, detail: refused.detail, slug: refused.slug }).toEqual(expected && { ...expected, slug: 'invalid-request' });
  });
});
