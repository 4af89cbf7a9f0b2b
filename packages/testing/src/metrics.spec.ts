import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricSeries, metricSum, scrapeMetrics } from './metrics';

const TEXT = [
  '# HELP unigate_http_requests_total Requests answered',
  '# TYPE unigate_http_requests_total counter',
  'unigate_http_requests_total{route="/v1/chat/completions",status="200"} 7',
  'unigate_http_requests_total{route="/v1/chat/completions",status="429"} 2',
  'unigate_http_requests_total{route="/v1/embeddings",status="200"} 3',
  'unigate_http_requests_total_created 1764460000',
  'unigate_rejections_total{model="say \\"hi\\"",reason="402"} 1',
  'nodejs_eventloop_lag_p99_seconds 0.0123',
  '',
].join('\n');

describe('metricSeries and metricSum', () => {
  it('finds every series of a name whose labels include those asked for, and no series of a longer name', () => {
    expect(metricSeries(TEXT, 'unigate_http_requests_total', { status: '200' })).toEqual([
      { labels: { route: '/v1/chat/completions', status: '200' }, value: 7 },
      { labels: { route: '/v1/embeddings', status: '200' }, value: 3 },
    ]);
    expect(metricSum(TEXT, 'unigate_http_requests_total')).toBe(12);
    expect(metricSum(TEXT, 'unigate_http_requests_total', { route: '/v1/chat/completions' })).toBe(9);
  });

  it('reads a series without labels, escaped quotes in a label, and sums nothing to 0', () => {
    expect(metricSeries(TEXT, 'nodejs_eventloop_lag_p99_seconds')).toEqual([{ labels: {}, value: 0.0123 }]);
    expect(metricSum(TEXT, 'unigate_rejections_total', { reason: '402' })).toBe(1);
    expect(metricSeries(TEXT, 'unigate_rejections_total')[0].labels.model).toBe('say \\"hi\\"');
    expect(metricSum(TEXT, 'unigate_missing_total')).toBe(0);
  });
});

describe('scrapeMetrics', () => {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const ok = req.url === '/metrics' && req.headers.authorization === 'Bearer right';
      res.writeHead(ok ? 200 : 401).end(ok ? TEXT : '{"error":"no"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('returns the text scraped with the bearer token, and throws naming the status otherwise', async () => {
    expect(await scrapeMetrics(origin, 'right')).toBe(TEXT);
    await expect(scrapeMetrics(origin, 'wrong')).rejects.toThrow(`GET ${origin}/metrics answered 401`);
  });
});
