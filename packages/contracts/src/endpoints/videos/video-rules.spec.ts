import type { ModelInfo } from '../../catalog';
import { GatewayError } from '../../errors';
import { parseRequest } from '../endpoint-spec';
import { isPrivateHost } from '../private-host';
import { videoGenerationsSpec } from './endpoint';
import { planVideo, sizeFor, type VideoGenerationRequest } from './video-rules';

function model(id: string, format: '2.6' | '2.7', resolutions: string[]): ModelInfo {
  const mode = id.match(/-(t2v|i2v|r2v)/)![1] as 't2v' | 'i2v' | 'r2v';
  return {
    id,
    family: 'beta',
    kind: 'video',
    owned_by: 'beta',
    created: 0,
    prices: { input_per_mtok: 0, output_per_mtok: 0 },
    video: {
      input_mode: mode,
      api_format: format,
      resolutions,
      default_resolution: '720p',
      aspect_ratios: ['16:9', '9:16', '1:1', '4:3', '3:4'],
      default_duration_seconds: 5,
      max_duration_seconds: 10,
    },
  } as ModelInfo;
}

const T2V_27 = model('beta2.7-t2v', '2.7', ['720p', '1080p']);
const I2V_27 = model('beta2.7-i2v', '2.7', ['720p']);
const R2V_27 = model('beta2.7-r2v', '2.7', ['720p']);
const T2V_26 = model('beta2.6-t2v', '2.6', ['720p', '1080p']);
const I2V_26 = model('beta2.6-i2v', '2.6', ['720p', '1080p']);
const R2V_26 = model('beta2.6-r2v', '2.6', ['720p', '1080p']);
const PREVIEW = model('beta2.5-t2v-preview', '2.6', ['480p', '720p', '1080p']);

const req27 = (m: ModelInfo, input: Record<string, unknown>, extra: Partial<VideoGenerationRequest> = {}): VideoGenerationRequest => ({
  model: m.id,
  duration: 5,
  resolution: '720p',
  input: { prompt: 'a cat', ...input },
  parameters: { resolution: '720P', duration: 5 },
  ...extra,
});
const req26 = (m: ModelInfo, input: Record<string, unknown>, extra: Partial<VideoGenerationRequest> = {}): VideoGenerationRequest => ({
  model: m.id,
  duration: 5,
  resolution: '720p',
  input: { prompt: 'a cat', ...input },
  parameters: { size: '1280*720', duration: 5 },
  ...extra,
});

function refusal(fn: () => unknown): { code: string; param: string | null } {
  try {
    fn();
  } catch (err) {
    if (!GatewayError.is(err)) throw err;
    expect(err.status).toBe(400);
    return { code: err.code, param: err.param ?? null };
  }
  throw new Error('expected a refusal');
}

describe('planVideo', () => {
  const img = 'https://example.com/a.png';
  it.each([
    ['2.7 t2v', T2V_27, req27(T2V_27, {})],
    ['2.7 i2v', I2V_27, req27(I2V_27, { media: [{ type: 'first_frame', url: img }] })],
    ['2.7 r2v', R2V_27, req27(R2V_27, { media: [{ type: 'reference_image', url: img }] })],
    ['2.6 t2v', T2V_26, req26(T2V_26, {})],
    ['2.6 i2v', I2V_26, req26(I2V_26, { img_url: img, audio_url: 'https://example.com/a.mp3' })],
    ['2.6 r2v', R2V_26, req26(R2V_26, { reference_urls: [img] })],
    ['2.5 preview 480p', PREVIEW, req26(PREVIEW, {}, { resolution: '480p', parameters: { size: '832*480', duration: 5 } })],
    [
      '2.6 1080p 1:1 as the square the vendor lists',
      T2V_26,
      req26(T2V_26, {}, { resolution: '1080p', aspect_ratio: '1:1', parameters: { size: '1440*1440', duration: 5 } }),
    ],
    ['2.6 720p 3:4', I2V_26, req26(I2V_26, { img_url: img }, { aspect_ratio: '3:4', parameters: { size: '832*1088', duration: 5 } })],
  ])('accepts %s', (_, m, r) => {
    expect(planVideo(m, r, false)).toEqual({ duration: 5, resolution: r.resolution });
  });

  it.each([
    [
      '480p off the previews',
      T2V_26,
      req26(T2V_26, {}, { resolution: '480p', parameters: { size: '832*480', duration: 5 } }),
      'resolution',
    ],
    [
      '2.6 1080p 1:1 given a size that is not square',
      T2V_26,
      req26(T2V_26, {}, { resolution: '1080p', aspect_ratio: '1:1', parameters: { size: '1088*1080', duration: 5 } }),
      'parameters.size',
    ],
    [
      '480p at 4:3, which the vendor does not offer',
      PREVIEW,
      req26(PREVIEW, {}, { resolution: '480p', aspect_ratio: '4:3', parameters: { size: '640*480', duration: 5 } }),
      'aspect_ratio',
    ],
    [
      '1080p on a 720p-only 2.7 model',
      I2V_27,
      req27(
        I2V_27,
        { media: [{ type: 'first_frame', url: img }] },
        { resolution: '1080p', parameters: { resolution: '1080P', duration: 5 } },
      ),
      'resolution',
    ],
    [
      'duration over the maximum',
      T2V_27,
      req27(T2V_27, {}, { duration: 30, parameters: { resolution: '720P', duration: 30 } }),
      'duration',
    ],
    [
      'parameters.duration differing',
      T2V_27,
      req27(T2V_27, {}, { parameters: { resolution: '720P', duration: 10 } }),
      'parameters.duration',
    ],
    [
      '2.7 parameters.resolution lower-case',
      T2V_27,
      req27(T2V_27, {}, { parameters: { resolution: '720p', duration: 5 } }),
      'parameters.resolution',
    ],
    [
      '2.7 given a 2.6 size',
      T2V_27,
      req27(T2V_27, {}, { parameters: { size: '1280*720', resolution: '720P', duration: 5 } }),
      'parameters.size',
    ],
    ['2.6 given a 2.7 resolution', T2V_26, req26(T2V_26, {}, { parameters: { resolution: '720P', duration: 5 } }), 'parameters.resolution'],
    ['2.6 size not repeating resolution', T2V_26, req26(T2V_26, {}, { parameters: { size: '1920*1080', duration: 5 } }), 'parameters.size'],
    ['missing prompt', T2V_27, req27(T2V_27, { prompt: '' }), 'input.prompt'],
    ['2.7 t2v with media', T2V_27, req27(T2V_27, { media: [{ type: 'first_frame', url: img }] }), 'input.media'],
    ['2.7 i2v without first_frame', I2V_27, req27(I2V_27, { media: [{ type: 'reference_image', url: img }] }), 'input.media'],
    ['2.7 unknown media type', R2V_27, req27(R2V_27, { media: [{ type: 'poster', url: img }] }), 'input.media[0].type'],
    ['2.7 given img_url', I2V_27, req27(I2V_27, { img_url: img }), 'input.img_url'],
    ['2.6 i2v without img_url', I2V_26, req26(I2V_26, {}), 'input.img_url'],
    ['2.6 i2v given media', I2V_26, req26(I2V_26, { media: [{ type: 'first_frame', url: img }] }), 'input.media'],
    ['2.6 r2v without reference_urls', R2V_26, req26(R2V_26, {}), 'input.reference_urls'],
    ['2.6 t2v given img_url', T2V_26, req26(T2V_26, { img_url: img }), 'input.img_url'],
    [
      '2.6 shot_type unknown',
      T2V_26,
      req26(T2V_26, {}, { parameters: { size: '1280*720', duration: 5, shot_type: 'wide' } }),
      'parameters.shot_type',
    ],
    ['http webhook', T2V_27, req27(T2V_27, {}, { webhook_url: 'http://example.com/hook' }), 'webhook_url'],
    ['private webhook', T2V_27, req27(T2V_27, {}, { webhook_url: 'https://10.0.0.8/hook' }), 'webhook_url'],
    ['webhook with a NUL', T2V_27, req27(T2V_27, {}, { webhook_url: 'https://example.com/\u0000hook' }), 'webhook_url'],
    ['webhook with a line break', T2V_27, req27(T2V_27, {}, { webhook_url: 'https://example.com/\nhook' }), 'webhook_url'],
    [
      'webhook to localhost written with the root dot',
      T2V_27,
      req27(T2V_27, {}, { webhook_url: 'https://LOCALHOST./hook' }),
      'webhook_url',
    ],
    [
      'webhook to an .internal name with the root dot',
      T2V_27,
      req27(T2V_27, {}, { webhook_url: 'https://foo.internal./x' }),
      'webhook_url',
    ],
  ])('refuses %s (400 InvalidParameter naming the field)', (_, m, r, param) => {
    expect(refusal(() => planVideo(m, r, false))).toEqual({ code: 'InvalidParameter', param });
  });

  it('says what is wrong with a webhook URL that does not parse: its port past 65535', () => {
    const r = req27(T2V_27, {}, { webhook_url: 'https://example.com:99999/x' });
    expect(() => planVideo(T2V_27, r, false)).toThrow(/a port up to 65535/);
  });

  it('lets private http webhooks through only when the operator allows them', () => {
    const r = req27(T2V_27, {}, { webhook_url: 'http://127.0.0.1:9000/hook' });
    expect(refusal(() => planVideo(T2V_27, r, false)).param).toBe('webhook_url');
    expect(planVideo(T2V_27, r, true).duration).toBe(5);
  });

  // The vendor's wan 2.5/2.6 list of sizes, every resolution and aspect ratio it has; 480p has no 4:3 or 3:4.
  it.each([
    ['480p', '16:9', '832*480'],
    ['480p', '9:16', '480*832'],
    ['480p', '1:1', '624*624'],
    ['720p', '16:9', '1280*720'],
    ['720p', '9:16', '720*1280'],
    ['720p', '1:1', '960*960'],
    ['720p', '4:3', '1088*832'],
    ['720p', '3:4', '832*1088'],
    ['1080p', '16:9', '1920*1080'],
    ['1080p', '9:16', '1080*1920'],
    ['1080p', '1:1', '1440*1440'],
    ['1080p', '4:3', '1632*1248'],
    ['1080p', '3:4', '1248*1632'],
  ])('writes 2.6 sizes as the vendor lists them: %s %s is %s', (resolution, ratio, size) => {
    expect(sizeFor(resolution, ratio)).toBe(size);
  });

  it('has no 2.6 size where the vendor lists none', () => {
    for (const [resolution, ratio] of [
      ['480p', '4:3'],
      ['480p', '3:4'],
      ['720p', '21:9'],
      ['4k', '16:9'],
      ['constructor', 'constructor'],
    ])
      expect(sizeFor(resolution, ratio)).toBeUndefined();
  });

  it('knows private hosts, however written', () => {
    for (const h of [
      'localhost',
      'LOCALHOST.',
      'a.localhost',
      'foo.internal.',
      'printer.local',
      'intranet',
      '127.0.0.1',
      '192.168.1.2',
      '[::1]',
      'fd00::1',
      '169.254.169.254',
    ])
      expect([h, isPrivateHost(h)]).toEqual([h, true]);
    for (const h of ['example.com', 'example.com.', '8.8.8.8', '2001:4860::8888']) expect([h, isPrivateHost(h)]).toEqual([h, false]);
  });
});

describe('a submission its schema refuses', () => {
  const valid = req26(T2V_26, {});
  it.each([
    ['a fractional duration', { duration: 5.5 }, 'duration'],
    ['a duration as text', { duration: '5' }, 'duration'],
    ['parameters that are not an object', { parameters: 'oops' }, 'parameters'],
    ['input that is not an object', { input: 'x' }, 'input'],
    ['a null webhook_url', { webhook_url: null }, 'webhook_url'],
    ['a null aspect_ratio', { aspect_ratio: null }, 'aspect_ratio'],
    ['a model that is not a string', { model: 5 }, 'model'],
  ])('%s is a 400 InvalidParameter (Shape A) naming the field, saying what was wrong', (_, extra, param) => {
    let refused: unknown;
    try {
      parseRequest(videoGenerationsSpec, { ...valid, ...extra });
    } catch (err) {
      refused = err;
    }
    if (!GatewayError.is(refused)) throw new Error('expected a refusal');
    expect({ status: refused.status, code: refused.code, param: refused.param }).toEqual({ status: 400, code: 'InvalidParameter', param });
    expect(refused.message).toMatch(new RegExp(`^Invalid '${param}': .*expected`));
  });
});
