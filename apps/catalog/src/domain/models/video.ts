/**
 * Beta video models (SPEC.md §2.6). The suffix picks the input mode, the major version the upstream body
 * format (2.5 previews speak the 2.6 format). Billed per output second by resolution.
 */
import type { ModelInfo, VideoLimits } from '@unigate/contracts';
import { usd } from './usd';

const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4'];

interface Tier {
  format: VideoLimits['api_format'];
  maxSeconds: number;
  /** resolution → USD per second */
  perSecond: Record<string, number>;
}

const PREVIEW_2_5: Tier = { format: '2.6', maxSeconds: 10, perSecond: { '480p': 0.05, '720p': 0.1, '1080p': 0.15 } };
const STANDARD_2_6: Tier = { format: '2.6', maxSeconds: 15, perSecond: { '720p': 0.1, '1080p': 0.15 } };
const FLASH_2_6: Tier = { format: '2.6', maxSeconds: 15, perSecond: { '720p': 0.05, '1080p': 0.075 } };
// SPEC.md: "most 2.7 models only 720p"; text-to-video is the exception we offer at 1080p as well.
const T2V_2_7: Tier = { format: '2.7', maxSeconds: 15, perSecond: { '720p': 0.12, '1080p': 0.18 } };
const ONLY_720_2_7: Tier = { format: '2.7', maxSeconds: 15, perSecond: { '720p': 0.12 } };

const MODE_TEXT = { t2v: 'text-to-video', i2v: 'image-to-video', r2v: 'reference-to-video' } as const;

function beta(id: string, created: number, tier: Tier): ModelInfo {
  const mode = id.match(/-(t2v|i2v|r2v)/)![1] as VideoLimits['input_mode'];
  const bySecond = Object.fromEntries(Object.entries(tier.perSecond).map(([res, v]) => [res, usd(v)]));
  const resolutions = Object.keys(tier.perSecond);
  return {
    id,
    family: 'beta',
    kind: 'video',
    owned_by: 'beta',
    created,
    description: `Beta ${MODE_TEXT[mode]}, ${resolutions.join('/')}, up to ${tier.maxSeconds} s.`,
    prices: {
      input_per_mtok: 0,
      output_per_mtok: 0,
      per_video_second: bySecond['720p'],
      per_video_second_by_resolution: bySecond,
    },
    endpoints: ['/v1/videos/generations'],
    video: {
      input_mode: mode,
      api_format: tier.format,
      resolutions,
      default_resolution: '720p',
      aspect_ratios: ASPECT_RATIOS,
      default_duration_seconds: 5,
      max_duration_seconds: tier.maxSeconds,
    },
  };
}

export const VIDEO_MODELS: ModelInfo[] = [
  beta('beta2.6-t2v', 1765497600, STANDARD_2_6),
  beta('beta2.7-t2v', 1777075200, T2V_2_7),
  beta('beta2.7-t2v-2026-04-25', 1777075200, T2V_2_7),
  beta('beta2.5-t2v-preview', 1758672000, PREVIEW_2_5),
  beta('beta2.6-i2v', 1765497600, STANDARD_2_6),
  beta('beta2.6-i2v-flash', 1765497600, FLASH_2_6),
  beta('beta2.7-i2v', 1777075200, ONLY_720_2_7),
  beta('beta2.7-i2v-2026-04-25', 1777075200, ONLY_720_2_7),
  beta('beta2.5-i2v-preview', 1758672000, PREVIEW_2_5),
  beta('beta2.6-r2v', 1765497600, STANDARD_2_6),
  beta('beta2.6-r2v-flash', 1765497600, FLASH_2_6),
  beta('beta2.7-r2v', 1777075200, ONLY_720_2_7),
];

/**
 * Kappa video (content-generation tasks with `cgt-` ids): first/last frame, seed reproduction, audio.
 * Its request format is `content` (docs/video.md); up to 12 s at 480p–1080p.
 */
function kappa(id: string, mode: VideoLimits['input_mode'], perSecond: Record<string, number>): ModelInfo {
  const bySecond = Object.fromEntries(Object.entries(perSecond).map(([res, v]) => [res, usd(v)]));
  const resolutions = Object.keys(perSecond);
  return {
    id,
    family: 'kappa',
    kind: 'video',
    owned_by: 'kappa',
    created: 1761955200,
    description: `Kappa ${MODE_TEXT[mode]} (first/last frame, seed, audio), ${resolutions.join('/')}, up to 12 s.`,
    prices: { input_per_mtok: 0, output_per_mtok: 0, per_video_second: bySecond['720p'], per_video_second_by_resolution: bySecond },
    endpoints: ['/v1/videos/generations'],
    video: {
      input_mode: mode,
      api_format: 'content',
      resolutions,
      default_resolution: '720p',
      aspect_ratios: ASPECT_RATIOS,
      default_duration_seconds: 5,
      max_duration_seconds: 12,
    },
  };
}

VIDEO_MODELS.push(
  kappa('kappa-seed-t2v', 't2v', { '480p': 0.03, '720p': 0.06, '1080p': 0.1 }),
  kappa('kappa-seed-i2v', 'i2v', { '480p': 0.03, '720p': 0.06, '1080p': 0.1 }),
);
