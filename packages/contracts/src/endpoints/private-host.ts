/**
 * Whether a URL's host is one the gateway must not be sent to by a client: a loopback, private,
 * link-local or unspecified address, or a name that only resolves locally. The one judgment of a
 * host as written, for the alpha family's reference images and the video webhook at submission
 * (packages/providers' safe fetch checks the addresses again after DNS resolution).
 */
import { isIP } from 'node:net';

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
  const version = isIP(host);
  if (version === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (version === 6) {
    if (host === '::1' || host === '::') return true;
    if (host.startsWith('::ffff:')) return isPrivateHost(host.slice(7));
    return /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return !host.includes('.') || LOCAL_NAME.test(host);
}
