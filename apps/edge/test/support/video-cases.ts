/** Valid and invalid submissions for the 12 beta video models (SPEC.md §2.6), shared by the video suites. */
export const BETA_VIDEO_MODELS = [
  'beta2.6-t2v',
  'beta2.7-t2v',
  'beta2.7-t2v-2026-04-25',
  'beta2.5-t2v-preview',
  'beta2.6-i2v',
  'beta2.6-i2v-flash',
  'beta2.7-i2v',
  'beta2.7-i2v-2026-04-25',
  'beta2.5-i2v-preview',
  'beta2.6-r2v',
  'beta2.6-r2v-flash',
  'beta2.7-r2v',
] as const;

const IMG = 'https://example.com/frame.png';
const modeOf = (model: string) => model.match(/-(t2v|i2v|r2v)/)![1] as 't2v' | 'i2v' | 'r2v';
const is27 = (model: string) => model.startsWith('beta2.7');

/** A valid submission of `model`, its prompt carrying the simulator's script (`[sim:polls=N]`, `[sim:fail]`). */
export function videoBody(model: string, prompt = 'a lighthouse at dusk [sim:polls=1]', extra: Record<string, unknown> = {}) {
  const mode = modeOf(model);
  const input: Record<string, unknown> = { prompt };
  if (is27(model)) {
    if (mode === 'i2v') input.media = [{ type: 'first_frame', url: IMG }];
    if (mode === 'r2v') input.media = [{ type: 'reference_image', url: IMG }];
  } else {
    if (mode === 'i2v') input.img_url = IMG;
    if (mode === 'r2v') input.reference_urls = [IMG];
  }
  const parameters = is27(model)
    ? { resolution: '720P', duration: 5, prompt_extend: false }
    : { size: '1280*720', duration: 5, prompt_extend: false };
  return { model, duration: 5, resolution: '720p', aspect_ratio: '16:9', input, parameters, ...extra };
}

/** One wrong submission per model: the other format's fields (a 400 naming the field). */
export function wrongFormatBody(model: string): { body: Record<string, unknown>; param: string } {
  const body = videoBody(model);
  if (is27(model)) return { body: { ...body, parameters: { size: '1280*720', duration: 5 } }, param: 'parameters.size' };
  return { body: { ...body, parameters: { resolution: '720P', duration: 5 } }, param: 'parameters.resolution' };
}
