import type { Channel } from '@unigate/contracts';
import { useReplayUpstream } from '../__test-support__/replay-server';
import { alphaGenerate } from './dashscope-images';

const up = useReplayUpstream(
  (http) => http,
  (url): Channel => ({
    id: 'alpha',
    protocol: 'dashscope',
    base_url: url,
    api_key: 'sk-upstream',
    upstream_model: 'wan2.6-image',
    priority: 0,
    weight: 1,
  }),
);

describe('alpha image generation', () => {
  it('without object storage is a 503 before any upstream call (the results could not be served)', async () => {
    const ctx = { signal: new AbortController().signal, request_id: 'req_1', account_id: 'acct_1', options: {}, files: [] };
    const req = { model: 'alpha2.6-image', input: { messages: [{ role: 'user', content: [{ text: 'a lighthouse' }] }] } };
    await expect(alphaGenerate(up.client, undefined, up.channel, req, ctx as never)).rejects.toMatchObject({
      status: 503,
      retryable: false,
      message: expect.stringContaining('alpha2.6-image is not available on this gateway'),
    });
    expect(up.server.requests).toHaveLength(0);
  });
});
