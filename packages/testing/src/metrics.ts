/**
 * Reading a process's Prometheus metrics from tests and scripts (the e2e suites, `npm run soak`): one
 * scrape, one parser of the text exposition format.
 */

/** The text of `${origin}/metrics`, scraped with `token` (the admin token serves when no metrics token is set). */
export async function scrapeMetrics(origin: string, token: string): Promise<string> {
  const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${origin}/metrics answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

const SERIES = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every series of `name` in a scrape whose labels include `labels`, with its labels and value. */
export function metricSeries(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): Array<{ labels: Record<string, string>; value: number }> {
  const found = [];
  for (const line of text.split('\n')) {
    const m = SERIES.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(LABEL)].map(([, k, v]) => [k, v]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) found.push({ labels: have, value: Number(m[3]) });
  }
  return found;
}

/** The sum of those series (0 when there is none). */
export const metricSum = (text: string, name: string, labels: Record<string, string> = {}): number =>
  metricSeries(text, name, labels).reduce((sum, s) => sum + s.value, 0);
