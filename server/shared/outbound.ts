/**
 * Requests the service sends to URLs partners give it: webhook deliveries (a subscription's
 * `url`, createWebhookSubscription and v1CreateWebhook) and JWKS fetches (`jwksUri` of
 * setJwtIssuer). In production they reach public unicast addresses only, so a partner cannot
 * turn the service into a probe of its own network: loopback, private networks, link-local
 * and cloud metadata, and every other special-purpose range. The sandbox connects anywhere,
 * because partners run their receivers and JWKS servers on their own machines; a sandbox
 * shared by several partners applies the production rule too (RAMP_OUTBOUND_PUBLIC_ONLY,
 * `publicOnlyRule`), or one partner could read another's receiver on the host's network.
 *
 * The rule is applied at three moments, because each alone can be dodged:
 * - when a URL is registered (`urlProblem`): literal addresses, and names that always mean
 *   this machine or a private network, so the partner hears at once;
 * - when connecting (`connection`): a literal address again (a stored URL may predate a
 *   rule, and net.connect never asks a lookup about a literal), and a name through a lookup
 *   that hands the socket public addresses only. The socket connects to what that lookup
 *   answered, so a name that resolves to a public address at registration and to 127.0.0.1
 *   at delivery (DNS rebinding) is refused when it matters;
 * - redirects are never followed (node:http does not), so a public URL cannot send the
 *   request inward.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The global unicast space IANA allocates from (RFC 4291): every other IPv6 address is special or unassigned. */
const globalUnicast = ipaddr.parseCIDR('2000::/3');
/** The NAT64 well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const nat64 = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * True when an IP address (v4 or v6, in brackets or not) is a public unicast address: in no
 * range of the IANA IPv4 and IPv6 special-purpose address registries (ipaddr.js's `range()`
 * is `unicast`), nor multicast, and for IPv6 inside 2000::/3.
 *
 * IPv6 forms that carry an IPv4 address: the mapped form ::ffff:a.b.c.d is an IPv4
 * connection to a.b.c.d, and NAT64's 64:ff9b::a.b.c.d reaches a.b.c.d through the network's
 * translator (on an IPv6-only network with DNS64 that is how every IPv4-only receiver is
 * reached, so refusing it would cut them off): both are judged by the IPv4 address they carry.
 * The others are refused outright: IPv4-compatible ::a.b.c.d (deprecated, outside 2000::/3),
 * local-use NAT64 64:ff9b:1::/48 (where the IPv4 address sits is the operator's choice), 6to4
 * 2002::/16 and Teredo 2001::/32 (tunnels that relays or this host's own stack unwrap to an
 * IPv4 address; deprecated, and no receiver needs them).
 */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  // Node's own parser first: only what net.connect would take as an address is judged.
  const family = isIP(ip);
  if (family === 0) return false;
  let v6: ipaddr.IPv6;
  try {
    if (family === 4) return ipaddr.IPv4.parse(ip).range() === 'unicast';
    v6 = parseIPv6(ip);
  } catch {
    return false;
  }
  if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
  if (v6.match(nat64)) return isPublicAddress(new ipaddr.IPv4(v6.toByteArray().slice(12)).toString());
  return v6.match(globalUnicast) && v6.range() === 'unicast';
}

/**
 * ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (mapped), which would
 * judge ::8.8.8.8 public; and getaddrinfo writes an AAAA answer of ::808:808 that way. The
 * WHATWG URL parser writes every IPv6 address in plain hexadecimal, which ipaddr.js reads
 * exactly. A zone (`%eth0`) does not change the address.
 */
function parseIPv6(ip: string): ipaddr.IPv6 {
  return ipaddr.IPv6.parse(new URL(`http://[${ip.replace(/%.*$/s, '')}]/`).hostname.slice(1, -1));
}

/** Host names that always mean this machine or its private network. */
const localNames = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)\.?$/i;

export interface UrlRules {
  /** https only (production, and v1 webhooks everywhere). */
  httpsOnly: boolean;
  /** Refuse loopback, private and other non-public hosts (production, a shared sandbox). */
  publicOnly: boolean;
  /** Where the refusal says the public-only rule holds: `in production` unless said otherwise. */
  publicOnlyIn?: string;
}

/** The public-only rule as the server's configuration sets it (Config.outboundPublicOnly). */
export function publicOnlyRule(config: { env: string; outboundPublicOnly: boolean }): Pick<UrlRules, 'publicOnly' | 'publicOnlyIn'> {
  return { publicOnly: config.outboundPublicOnly, publicOnlyIn: config.env === 'production' ? 'in production' : 'in this shared sandbox' };
}

/** Why a URL the service will send requests to is refused, or undefined when it is accepted. */
export function urlProblem(url: string, rules: UrlRules): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (rules.httpsOnly && parsed.protocol !== 'https:') return rules.publicOnly ? 'must use https in production' : 'must use https';
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an http or https URL';
  if (!parsed.hostname) return 'must name a host';
  if (parsed.username || parsed.password) return 'must not carry credentials';
  if (rules.publicOnly) {
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) ? !isPublicAddress(host) : localNames.test(host) || !host.includes('.')) {
      return `must not point at a loopback, private or local address ${rules.publicOnlyIn ?? 'in production'}`;
    }
  }
  return undefined;
}

/** A refusal of the public-only rule, at connect time; `code` as Node's own socket errors have one. */
export class AddressNotAllowed extends Error {
  readonly code = 'EADDRNOTALLOWED';
}

/** dns.lookup's shape with `all: true`, so tests can answer for a name. */
export type Resolve = (hostname: string, options: { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** A socket lookup that resolves with `resolve` and answers public addresses only. */
export function publicOnlyLookup(resolve: Resolve = dnsLookup): LookupFunction {
  return lookupWith(resolve, isPublicAddress);
}

function lookupWith(resolve: Resolve, isAllowed: (address: string) => boolean): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error);
      const allowed = addresses.filter((a) => isAllowed(a.address));
      if (allowed.length === 0) return callback(new AddressNotAllowed(`address not allowed: ${hostname} resolves to no public address`));
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  }) as LookupFunction;
}

/**
 * Kept-alive connections, reused per host. The public-only agents carry the lookup
 * themselves (agent options override a request's), so each of their sockets was connected
 * through it, and a socket of one never serves the other.
 */
const agentOptions = { keepAlive: true, timeout: 4000 };
const agents = {
  any: { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) },
  publicOnly: {
    'http:': new http.Agent({ ...agentOptions, lookup: publicOnlyLookup() }),
    'https:': new https.Agent({ ...agentOptions, lookup: publicOnlyLookup() }),
  },
};

/**
 * The agent to send a request to `target` with (http: or https:), under the public-only rule
 * when `publicOnly`; throws AddressNotAllowed for a literal address that is not public. With
 * `resolve` (tests) the agent is a fresh one that keeps nothing.
 */
export function connection(target: URL, options: { publicOnly: boolean; resolve?: Resolve | undefined }): { agent: http.Agent } {
  const protocol = target.protocol === 'https:' ? 'https:' : 'http:';
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (options.publicOnly && isIP(host) && !isPublicAddress(host)) throw new AddressNotAllowed(`address not allowed: ${host} is not a public address`);
  if (!options.resolve) return { agent: agents[options.publicOnly ? 'publicOnly' : 'any'][protocol] };
  const Agent = protocol === 'https:' ? https.Agent : http.Agent;
  return { agent: new Agent({ lookup: lookupWith(options.resolve, options.publicOnly ? isPublicAddress : () => true) }) };
}
