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
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): whatever a site's translator maps it to
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: a tunnel to an IPv4 address written obfuscated
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, AWS metadata fd00:ec2::254
  ['fec0::', 10], // site-local (deprecated, still routed inside some sites)
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Whether `address` (an IP literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const embedded = embeddedIpv4(ipv6Bytes(address));
    if (embedded !== undefined) return isPublicAddress(embedded);
    return !NOT_PUBLIC.check(address, 'ipv6');
  }
  return !NOT_PUBLIC.check(address, 'ipv4');
}

/**
 * The IPv4 address an IPv6 one carries and reaches, where the network translates it: IPv4-mapped
 * (::ffff:0:0/96) and IPv4-compatible (::/96, `::` and `::1` among them), NAT64's well-known prefix
 * (64:ff9b::/96: an IPv6-only cluster with DNS64 reaches any IPv4 address through it, internal ones
 * too), IPv4-translated (::ffff:0:0:0/96) and 6to4 (2002::/16). Judged as that IPv4 address.
 */
function embeddedIpv4(b: Uint8Array): string | undefined {
  const quad = (at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
  const zeroes = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  if (zeroes(0, 10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0))) return quad(12);
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT).
  if (zeroes(0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return quad(12);
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeroes(4, 12)) return quad(12);
  if (b[0] === 0x20 && b[1] === 0x02) return quad(2);
  return undefined;
}

/** The 16 bytes of an IPv6 literal (one isIP() accepts), a trailing dotted quad and a zone id allowed. */
function ipv6Bytes(address: string): Uint8Array {
  let text = address.split('%')[0];
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups = tail === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    bytes[2 * i] = v >> 8;
    bytes[2 * i + 1] = v & 0xff;
  });
  return bytes;
}

/** Names of the host itself, of a LAN or of an intranet (RFC 6761, 6762 and the common private suffixes). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home|corp)$/;

/**
 * A hostname as names compare: without IPv6 brackets and without the trailing dot of a fully
 * qualified name (`LOCALHOST.` is `localhost`, which DNS and the hosts file answer alike), lower case.
 */
export function bareHostname(hostname: string): string {
  const bare = hostname.replace(/^\[|\]$/g, '');
  // Trailing dots cut by a loop, linear: /\.+$/ tries every run of dots to the end, n²/2 steps on a
  // name made of dots.
  let end = bare.length;
  while (end > 0 && bare.charCodeAt(end - 1) === 0x2e) end--;
  return bare.slice(0, end).toLowerCase();
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
