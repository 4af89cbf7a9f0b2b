/**
 * A webhook target as given at submission: https, and not a loopback, private or link-local address
 * unless the operator allows it (UNIGATE_WEBHOOK_ALLOW_PRIVATE=1, docs/video.md). Names are checked
 * again after resolution when the webhook is sent.
 */
import { isIP } from 'node:net';
import { hasControlCharacters } from '../../stored-text';
import { invalidParameter } from '../images/alpha-generation';

export function checkWebhookUrl(raw: string, allowPrivate: boolean): void {
  // The URL parser would drop or escape them, but the task keeps the URL as given (and Postgres text
  // cannot hold NUL).
  if (hasControlCharacters(raw)) throw invalidParameter('webhook_url must not contain control characters.', 'webhook_url');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParameter('webhook_url must be an absolute URL.', 'webhook_url');
  }
  const httpAllowed = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) throw invalidParameter('webhook_url must be an https URL.', 'webhook_url');
  if (url.username || url.password) throw invalidParameter('webhook_url must not carry credentials.', 'webhook_url');
  if (!allowPrivate && isPrivateHost(url.hostname))
    throw invalidParameter('webhook_url must not point at a loopback or private address.', 'webhook_url');
}

/** Loopback, private, link-local and unspecified addresses (v4 and v6), and localhost names. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return true;
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
  return false;
}
