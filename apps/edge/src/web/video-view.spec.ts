import type { VideoTask, VideoTaskPort } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import { loadVideoView, RECENT_VIDEO_TASKS } from './video-view';

const tasks = [{ id: 'vtask-1' }] as VideoTask[];
const port = (over: Partial<VideoTaskPort> = {}): VideoTaskPort => ({
  lookup: () => Promise.reject(new Error('unused')),
  recent: async () => tasks,
  webhookSecret: async () => 'whsec_x',
  ...over,
});
const logger = () => ({ warn: jest.fn() }) as unknown as Logger & { warn: jest.Mock };

describe('the dashboard video cards data', () => {
  it("asks for the account's newest tasks and its webhook secret", async () => {
    const recent = jest.fn(async () => tasks);
    const webhookSecret = jest.fn(async () => 'whsec_x');
    expect(await loadVideoView(port({ recent, webhookSecret }), 'acct', logger())).toEqual({ tasks, webhookSecret: 'whsec_x' });
    expect(recent).toHaveBeenCalledWith('acct', RECENT_VIDEO_TASKS);
    expect(webhookSecret).toHaveBeenCalledWith('acct');
  });

  it('is unavailable (null) without a video service', async () => {
    expect(await loadVideoView(undefined, 'acct', logger())).toBeNull();
  });

  it('is unavailable, with a warning, when the video service fails or does not answer in time', async () => {
    const log = logger();
    expect(await loadVideoView(port({ webhookSecret: () => Promise.reject(new Error('UNAVAILABLE')) }), 'acct', log)).toBeNull();
    expect(await loadVideoView(port({ recent: () => new Promise<never>(() => undefined) }), 'acct', log, 20)).toBeNull();
    expect(log.warn).toHaveBeenCalledTimes(2);
    expect(String(log.warn.mock.calls[0][0].err)).toContain('UNAVAILABLE');
    expect(String(log.warn.mock.calls[1][0].err)).toContain('no answer in 20 ms');
  });
});
