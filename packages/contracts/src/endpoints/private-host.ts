/**
 * Whether a URL's host is one the gateway must not be sent to by a client: a loopback, private,
 * link-local or unspecified address, or a name that only resolves locally. The one judgment of a
 * host as written, for the alpha family's reference images and the video webhook at submission;
 * packages/providers' safe fetch checks the addresses again after DNS resolution, against the same
 * table (isPublicAddress).
 */
import { BlockList, isIP } from 'node:net';

/** Every address that is not public unicast: private, loopback, link-local, reserved, multicast. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local, AWS metadata fd00:ec2::254
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Whether `address` (an IP literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    return !NOT_PUBLIC.check(address, 'ipv6');
  }
  return !NOT_PUBLIC.check(address, 'ipv4');
}

/** Names of the host itself, of a LAN or of an intranet (RFC 6761, 6762 and the common private suffixes). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home|corp)$/;

/**
 * A hostname as names compare: without IPv6 brackets and without the trailing dot of a fully
 * qualified name (`LOCALHOST.` is `localhost`, which DNS and the hosts file answer alike), lower case.
 */
export function bareHostname(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

/**
 * Loopback, private, link-local and unspecified addresses (v4 and v6), local names (`localhost`,
 * `.local`, `.internal`, …) and names without a dot (resolved through the local search domain).
 */
export function isPrivateHost(hostname: string): boolean {
  const host = bareHostname(hostname);
  // An IPv4-mapped address in hex (the URL parser's form of [::ffff:1.2.3.4]) is refused whatever it maps.
  if (host.startsWith('::ffff:') && isIP(host.slice(7)) !== 4) return true;
  if (isIP(host) !== 0) return !isPublicAddress(host);
  return !host.includes('.') || LOCAL_NAME.test(host);
}
