/**
 * The public-only rule of requests to partner URLs (server/shared/outbound.ts): which addresses are
 * public, which URLs are accepted, and that a connection goes only where the rule allows,
 * whatever DNS answers.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connection, isPublicAddress, publicOnlyLookup, publicOnlyRule, urlProblem, type Resolve } from '../../../server/shared/outbound.ts';
import { answering, CountingListener } from '../../support/connections.ts';

/** Every entry of the IANA IPv4 Special-Purpose Address Registry, plus multicast: [name, range, a sample address in it]. */
const ipv4Registry: [string, string, string][] = [
  ['"this network"', '0.0.0.0/8', '0.1.2.3'],
  ['"this host on this network"', '0.0.0.0/32', '0.0.0.0'],
  ['private-use', '10.0.0.0/8', '10.1.2.3'],
  ['shared address space (carrier-grade NAT)', '100.64.0.0/10', '100.127.255.254'],
  ['loopback', '127.0.0.0/8', '127.0.0.1'],
  ['loopback, end of the range', '127.0.0.0/8', '127.255.255.254'],
  ['link local (cloud metadata)', '169.254.0.0/16', '169.254.169.254'],
  ['private-use', '172.16.0.0/12', '172.31.255.255'],
  ['IETF protocol assignments', '192.0.0.0/24', '192.0.0.100'],
  ['IPv4 service continuity prefix (DS-Lite)', '192.0.0.0/29', '192.0.0.1'],
  ['IPv4 dummy address', '192.0.0.8/32', '192.0.0.8'],
  ['Port Control Protocol anycast', '192.0.0.9/32', '192.0.0.9'],
  ['TURN anycast', '192.0.0.10/32', '192.0.0.10'],
  ['NAT64/DNS64 discovery', '192.0.0.170/32', '192.0.0.170'],
  ['NAT64/DNS64 discovery', '192.0.0.171/32', '192.0.0.171'],
  ['documentation (TEST-NET-1)', '192.0.2.0/24', '192.0.2.10'],
  ['AS112-v4', '192.31.196.0/24', '192.31.196.1'],
  ['AMT', '192.52.193.0/24', '192.52.193.1'],
  ['deprecated 6to4 relay anycast', '192.88.99.0/24', '192.88.99.1'],
  ['6a44 relay anycast', '192.88.99.2/32', '192.88.99.2'],
  ['private-use', '192.168.0.0/16', '192.168.1.1'],
  ['direct delegation AS112 service', '192.175.48.0/24', '192.175.48.1'],
  ['benchmarking', '198.18.0.0/15', '198.19.255.254'],
  ['documentation (TEST-NET-2)', '198.51.100.0/24', '198.51.100.7'],
  ['documentation (TEST-NET-3)', '203.0.113.0/24', '203.0.113.9'],
  ['reserved', '240.0.0.0/4', '240.0.0.1'],
  ['limited broadcast', '255.255.255.255/32', '255.255.255.255'],
  ['multicast (not in the registry)', '224.0.0.0/4', '239.255.255.250'],
];

/** Every entry of the IANA IPv6 Special-Purpose Address Registry, plus the other ranges no receiver is on. */
const ipv6Registry: [string, string, string][] = [
  ['loopback', '::1/128', '::1'],
  ['unspecified', '::/128', '::'],
  ['IPv4-mapped, judged by its IPv4 address', '::ffff:0:0/96', '::ffff:127.0.0.1'],
  ['IPv4-mapped, hexadecimal', '::ffff:0:0/96', '::ffff:a00:1'],
  ['IPv4-IPv6 translation (NAT64), judged by its IPv4 address', '64:ff9b::/96', '64:ff9b::7f00:1'],
  ['IPv4-IPv6 translation (NAT64), dotted', '64:ff9b::/96', '64:ff9b::169.254.169.254'],
  ['local-use IPv4-IPv6 translation, refused outright', '64:ff9b:1::/48', '64:ff9b:1::808:808'],
  ['discard-only', '100::/64', '100::1'],
  ['dummy IPv6 prefix', '100:0:0:1::/64', '100:0:0:1::1'],
  ['IETF protocol assignments', '2001::/23', '2001:100::1'],
  ['Teredo, refused outright', '2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['Port Control Protocol anycast', '2001:1::1/128', '2001:1::1'],
  ['TURN anycast', '2001:1::2/128', '2001:1::2'],
  ['DNS-SD service registration protocol anycast', '2001:1::3/128', '2001:1::3'],
  ['benchmarking', '2001:2::/48', '2001:2::1'],
  ['AMT', '2001:3::/32', '2001:3::1'],
  ['AS112-v6', '2001:4:112::/48', '2001:4:112::1'],
  ['deprecated ORCHID', '2001:10::/28', '2001:10::1'],
  ['ORCHIDv2', '2001:20::/28', '2001:20::1'],
  ['drone remote ID protocol entity tags', '2001:30::/28', '2001:30::1'],
  ['documentation', '2001:db8::/32', '2001:db8::1'],
  ['6to4, refused outright (even around a public IPv4 address)', '2002::/16', '2002:808:808::1'],
  ['6to4 around loopback', '2002::/16', '2002:7f00:1::1'],
  ['direct delegation AS112 service', '2620:4f:8000::/48', '2620:4f:8000::1'],
  ['documentation', '3fff::/20', '3fff::1'],
  ['segment routing (SRv6) SIDs', '5f00::/16', '5f00::1'],
  ['unique-local', 'fc00::/7', 'fd12:3456::1'],
  ['link-local unicast', 'fe80::/10', 'fe80::1'],
  ['link-local with a zone', 'fe80::/10', 'fe80::1%eth0'],
  ['IPv4-compatible (deprecated), refused outright', '::/96', '::127.0.0.1'],
  ['IPv4-compatible around a public IPv4 address', '::/96', '::8.8.8.8'],
  ['IPv4-translated (SIIT)', '::ffff:0:0:0/96', '::ffff:0:808:808'],
  ['deprecated site-local', 'fec0::/10', 'fec0::1'],
  ['multicast', 'ff00::/8', 'ff02::1'],
];

describe('isPublicAddress', () => {
  it.each(ipv4Registry)('IPv4 %s (%s): %s is not public', (_name, _range, ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(ipv6Registry)('IPv6 %s (%s): %s is not public', (_name, _range, ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(['[::1]', 'not-an-ip', '127.1', '2130706433', '0x7f.0.0.1', ''])('%s is not an address it judges public', (ip) => expect(isPublicAddress(ip)).toBe(false));

  it.each([
    '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '192.0.1.1', '192.88.98.1', '198.17.255.255', '198.20.0.1',
    '223.255.255.254', '2606:4700:4700::1111', '2001:4860:4860::8888', '[2001:4860:4860::8888]', '2001:200::1', '2a00:1450:4001:80b::200e',
    // The embedded forms judged by their IPv4 address, around a public one.
    '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '64:ff9b::808:808',
  ])('%s is public', (ip) => expect(isPublicAddress(ip)).toBe(true));
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

  it('https only refuses http even in the sandbox (v1 webhooks)', () => {
    expect(urlProblem('http://partner.example/x', v1Sandbox)).toBe('must use https');
    expect(urlProblem('https://127.0.0.1/x', v1Sandbox)).toBeUndefined();
  });

  it('production wants https on a public host', () => {
    expect(urlProblem('https://partner.example/webhooks', production)).toBeUndefined();
    expect(urlProblem('https://8.8.8.8/webhooks', production)).toBeUndefined();
    expect(urlProblem('https://[2606:4700:4700::1111]/webhooks', production)).toBeUndefined();
    expect(urlProblem('http://partner.example/webhooks', production)).toBe('must use https in production');
  });

  it.each([
    'https://127.0.0.1/x', 'https://localhost/x', 'https://LOCALHOST./x', 'https://api.localhost/x', 'https://10.0.0.5/x', 'https://192.168.0.10/x',
    'https://169.254.169.254/latest/meta-data', 'https://[::1]/x', 'https://[fd00::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://2130706433/x',
    'https://0x7f.1/x', 'https://intranet/x', 'https://printer.local/x', 'https://db.internal/x',
    'https://[::127.0.0.1]/x', 'https://[64:ff9b::7f00:1]/x', 'https://[2002:7f00:1::1]/x', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x',
  ])('production refuses %s', (url) => {
    expect(urlProblem(url, production)).toMatch(/loopback, private or local/);
  });

  it('a shared sandbox (RAMP_OUTBOUND_PUBLIC_ONLY) refuses non-public hosts as production does, and says where', () => {
    const shared = { httpsOnly: false, ...publicOnlyRule({ env: 'sandbox', outboundPublicOnly: true }) };
    expect(urlProblem('https://127.0.0.1/x', shared)).toBe('must not point at a loopback, private or local address in this shared sandbox');
    expect(urlProblem('http://partner.example/x', shared)).toBeUndefined();
    expect(urlProblem('https://127.0.0.1/x', { httpsOnly: true, ...publicOnlyRule({ env: 'production', outboundPublicOnly: true }) })).toBe('must not point at a loopback, private or local address in production');
    expect(urlProblem('https://127.0.0.1/x', { httpsOnly: false, ...publicOnlyRule({ env: 'sandbox', outboundPublicOnly: false }) })).toBeUndefined();
  });
});

describe('publicOnlyLookup: what DNS answers is checked when connecting', () => {
  const look = (resolve: Resolve, all: boolean) =>
    new Promise<{ error: (Error & { code?: string }) | null; result: unknown }>((done) =>
      publicOnlyLookup(resolve)('jwks.partner.example', { all }, (error, result) => done({ error, result })),
    );

  it.each([['127.0.0.1'], ['::1'], ['10.0.0.7', 'fd00::7'], ['::ffff:169.254.169.254']])('refuses a name that resolves to %s', async (...addresses) => {
    for (const all of [true, false]) {
      const { error } = await look(answering(...addresses), all);
      expect(error?.code).toBe('EADDRNOTALLOWED');
      expect(error?.message).toBe('address not allowed: jwks.partner.example resolves to no public address');
    }
  });

  it('keeps only the public addresses of a mixed answer', async () => {
    expect((await look(answering('127.0.0.1', '8.8.8.8', '::1', '2606:4700:4700::1111'), true)).result).toEqual([
      { address: '8.8.8.8', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    expect((await look(answering('10.0.0.1', '1.1.1.1'), false)).result).toBe('1.1.1.1');
  });

  it('passes a resolver error on', async () => {
    const failing: Resolve = (_h, _o, callback) => callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), []);
    expect((await look(failing, true)).error?.code).toBe('ENOTFOUND');
  });
});

describe('connection: a request goes only where the rule allows', () => {
  let listener: CountingListener;
  beforeAll(async () => {
    listener = await CountingListener.start();
  });
  afterAll(() => listener?.close());

  const get = (url: string, options: Parameters<typeof connection>[1]) =>
    new Promise<{ status?: number; error?: string }>((done) => {
      const target = new URL(url);
      let agent: http.Agent;
      try {
        ({ agent } = connection(target, options));
      } catch (error) {
        return done({ error: (error as Error).message });
      }
      http
        .get(target, { agent }, (response) => {
          response.resume();
          done({ status: response.statusCode });
        })
        .on('error', (error) => done({ error: error.message }));
    });

  it('never connects to a name that DNS points at loopback, in production', async () => {
    const before = listener.connections;
    const rebinding = answering('127.0.0.1', '::1');
    expect(await get(`http://jwks.partner.example:${listener.port}/jwks`, { publicOnly: true, resolve: rebinding })).toEqual({
      error: 'address not allowed: jwks.partner.example resolves to no public address',
    });
    expect(listener.connections).toBe(before);
    // The same name and answer outside production do connect: the refusal above is the rule's.
    expect(await get(`http://jwks.partner.example:${listener.port}/jwks`, { publicOnly: false, resolve: rebinding })).toEqual({ status: 200 });
    expect(listener.connections).toBe(before + 1);
  });

  it.each(['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::127.0.0.1]'])('refuses the literal %s in production before connecting', async (host) => {
    const before = listener.connections;
    const result = await get(`http://${host}:${listener.port}/jwks`, { publicOnly: true });
    expect(result.error).toMatch(/^address not allowed: .+ is not a public address$/);
    expect(listener.connections).toBe(before);
  });

  it('connects to loopback in the sandbox', async () => {
    expect(await get(`http://[::1]:${listener.port}/jwks`, { publicOnly: false })).toEqual({ status: 200 });
    expect(await get(`http://localhost:${listener.port}/jwks`, { publicOnly: false })).toEqual({ status: 200 });
  });
});
