/** Whether `value` is exactly an http(s) origin, `scheme://host[:port]` as URL.origin writes it: no path, no default port. */
export function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
