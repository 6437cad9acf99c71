/**
 * Which URLs a subscription may name, and which addresses a delivery may connect to.
 * Production delivers only to https URLs on public addresses, so a subscription cannot turn
 * the service into a probe of its own network (loopback, private, link-local, metadata).
 */
import { BlockList, isIP } from 'node:net';

/** Address ranges that are not the public Internet (IANA special-purpose registries). */
const special = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  special.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  special.addSubnet(network, prefix, 'ipv6');
}

/** True when an IP address (v4 or v6, IPv4-mapped included) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 6) {
    // ::ffff:10.0.0.1 and ::ffff:a00:1 reach an IPv4 host: judge that host.
    const mapped = /^::ffff:(?:0:)?(.+)$/i.exec(ip)?.[1];
    if (mapped) {
      if (isIP(mapped) === 4) return isPublicAddress(mapped);
      const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(mapped);
      if (hex) {
        const n = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
        return isPublicAddress([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
      }
    }
    return !special.check(ip, 'ipv6');
  }
  return !special.check(ip, 'ipv4');
}

/** Host names that always mean this machine or its private network. */
const localNames = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)\.?$/i;

export interface UrlRules {
  /** https only (production, and v1 everywhere). */
  httpsOnly: boolean;
  /** Refuse loopback, private and other non-public hosts (production). */
  publicOnly: boolean;
}

/** Why a subscription URL is refused, or undefined when it is accepted. */
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
      return 'must not point at a loopback, private or local address in production';
    }
  }
  return undefined;
}
