/** Which subscription URLs are accepted, and which addresses production delivers to. */
import { describe, expect, it } from 'vitest';
import { isPublicAddress, urlProblem } from '../../server/webhooks/urls.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.10', '198.18.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '[::1]', 'not-an-ip',
  ])('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2001:4860:4860::8888]'])(
    '%s is public',
    (ip) => expect(isPublicAddress(ip)).toBe(true),
  );
});

describe('urlProblem', () => {
  const sandbox = { httpsOnly: false, publicOnly: false };
  const production = { httpsOnly: true, publicOnly: true };
  const v1Sandbox = { httpsOnly: true, publicOnly: false };

  it('accepts http and https, loopback included, in the sandbox', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'https://partner.example/webhooks', 'http://localhost:3000/x']) expect(urlProblem(url, sandbox)).toBeUndefined();
  });

  it.each(['ftp://partner.example/x', 'mailto:ops@partner.example', 'javascript:alert(1)', 'partner.example/x', 'https://user:pw@partner.example/'])(
    'refuses %s everywhere',
    (url) => {
      expect(urlProblem(url, sandbox)).toBeDefined();
      expect(urlProblem(url, production)).toBeDefined();
    },
  );

  it('v1 refuses http even in the sandbox', () => {
    expect(urlProblem('http://partner.example/x', v1Sandbox)).toBe('must use https');
    expect(urlProblem('https://127.0.0.1/x', v1Sandbox)).toBeUndefined();
  });

  it('production wants https on a public host', () => {
    expect(urlProblem('https://partner.example/webhooks', production)).toBeUndefined();
    expect(urlProblem('https://8.8.8.8/webhooks', production)).toBeUndefined();
    expect(urlProblem('http://partner.example/webhooks', production)).toBe('must use https in production');
  });

  it.each([
    'https://127.0.0.1/x', 'https://localhost/x', 'https://LOCALHOST./x', 'https://api.localhost/x', 'https://10.0.0.5/x', 'https://192.168.0.10/x',
    'https://169.254.169.254/latest/meta-data', 'https://[::1]/x', 'https://[fd00::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://2130706433/x',
    'https://0x7f.1/x', 'https://intranet/x', 'https://printer.local/x', 'https://db.internal/x',
  ])('production refuses %s', (url) => {
    expect(urlProblem(url, production)).toMatch(/loopback, private or local/);
  });
});
