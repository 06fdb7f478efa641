// Which addresses the console may dial for a registry. A catalog names its bundle images, and
// catalog content is hostile: without this, an image at 169.254.169.254 or a cluster-internal
// Service would make the console a proxy into places only it can reach. So a registry host must
// resolve only to public addresses, unless the console's operator named it as private
// (OLM_CONSOLE_PRIVATE_REGISTRIES). The check runs in the connection's own DNS lookup, so the
// address checked is the address dialled (a name cannot resolve once to a public address for the
// check and then to a private one for the connection).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, bits, 'ipv6');

/** Whether `address` (an IP literal) is loopback, private, link-local or otherwise not public. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1]!, 'ipv4');
  return NON_PUBLIC.check(address, 'ipv6');
}

export class AddressRefused extends Error {}

const refusal = (host: string, address: string) =>
  new AddressRefused(
    `registry ${host} resolves to ${address}, a loopback, private or link-local address, ` +
      'which the console dials only for registries named in OLM_CONSOLE_PRIVATE_REGISTRIES',
  );

/**
 * The refusal for a host written as an IP address, which Node dials without a lookup (so
 * guardedLookup never sees it), or undefined when it may be dialled.
 */
export function literalAddressRefused(host: string, hostname: string, allowPrivate: boolean): Error | undefined {
  const address = hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || !isIP(address) || !isNonPublicAddress(address)) return undefined;
  return refusal(host, address);
}

/**
 * A lookup for https.request that refuses a host resolving to any non-public address, unless
 * `allowPrivate`. Every address the name has is judged, not only the one picked.
 */
export function guardedLookup(host: string, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((a) => isNonPublicAddress(a.address));
      if (refused) return callback(refusal(host, refused.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
