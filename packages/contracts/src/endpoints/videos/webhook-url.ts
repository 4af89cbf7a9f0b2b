/**
 * A webhook target as given at submission: https, and not a loopback, private or link-local address
 * unless the operator allows it (UNIGATE_WEBHOOK_ALLOW_PRIVATE=1, docs/video.md): the host as written
 * is judged like an alpha reference image's (private-host.ts), and again after resolution when the
 * webhook is sent.
 */
import { hasControlCharacters } from '../../stored-text';
import { invalidParameter } from '../images/alpha-generation';
import { isPrivateHost } from '../private-host';

export function checkWebhookUrl(raw: string, allowPrivate: boolean): void {
  // The URL parser would drop or escape them, but the task keeps the URL as given (and Postgres text
  // cannot hold NUL).
  if (hasControlCharacters(raw)) throw invalidParameter('webhook_url must not contain control characters.', 'webhook_url');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // "https://example.com:99999/x" is absolute but not a URL: its port is past 65535.
    throw invalidParameter('webhook_url must be a valid absolute URL (scheme, host, a port up to 65535).', 'webhook_url');
  }
  const httpAllowed = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) throw invalidParameter('webhook_url must be an https URL.', 'webhook_url');
  if (url.username || url.password) throw invalidParameter('webhook_url must not carry credentials.', 'webhook_url');
  if (!allowPrivate && isPrivateHost(url.hostname))
    throw invalidParameter('webhook_url must not point at a loopback or private address.', 'webhook_url');
}
