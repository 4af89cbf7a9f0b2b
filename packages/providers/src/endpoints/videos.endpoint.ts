/**
 * videos.generations on the service side: the submission is one upstream call with failover like any
 * other (nothing is billed at submission: the video service settles the hold when the task ends).
 * The answer says which channel took the task, so the poller asks the same upstream.
 */
import { videoGenerationsSpec, type Channel, type VideoGenerationRequest } from '@unigate/contracts';
import type { ServiceEndpoint } from '../adapter';
import { ArkVideo } from '../ark/ark-video';
import { DashscopeVideo } from '../dashscope/dashscope-video';
import type { HttpClient } from '../http/http-client';
import type { SubmittedVideoTask, VideoUpstream } from '../video/video-upstream';

export interface VideoSubmission extends SubmittedVideoTask {
  channel: Channel;
}

/** The video upstream speaking `protocol`, or undefined. */
export function videoUpstreamFor(protocol: string, http: HttpClient): VideoUpstream | undefined {
  if (protocol === 'dashscope') return new DashscopeVideo(http);
  if (protocol === 'ark') return new ArkVideo(http);
  return undefined;
}

export const videoGenerationsEndpoint: ServiceEndpoint<VideoGenerationRequest, VideoSubmission> = {
  spec: videoGenerationsSpec,
  adapter(protocol, http) {
    const upstream = videoUpstreamFor(protocol, http);
    if (!upstream) return undefined;
    return {
      call: async (channel, req, ctx) => ({ value: { ...(await upstream.submit(channel, req, ctx.signal)), channel }, usage: {} }),
    };
  },
};
