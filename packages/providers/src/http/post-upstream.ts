import type { HttpClient, HttpRequest, HttpResponse } from './http-client';
import { transportError } from './transport-errors';

/**
 * One POST to an upstream: a failure below HTTP becomes a transport error, a non-2xx answer the
 * vendor's own error (mapped by `httpError` from the status and body text); a 2xx is returned unread.
 */
export async function postUpstream(
  http: HttpClient,
  req: Omit<HttpRequest, 'method'>,
  httpError: (status: number, text: string) => unknown,
): Promise<HttpResponse> {
  let res: HttpResponse;
  try {
    res = await http.request({ ...req, method: 'POST' });
  } catch (err) {
    throw transportError(err, req.signal);
  }
  if (res.status >= 200 && res.status < 300) return res;
  const text = await res.body.text().catch(() => '');
  throw httpError(res.status, text);
}
