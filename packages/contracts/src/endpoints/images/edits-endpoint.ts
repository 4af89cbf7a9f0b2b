/**
 * POST /v1/images/edits (SPEC.md §2.4): multipart/form-data with the image(s) and an optional mask as
 * files, read by the edge within the limits below (413 beyond, before the rest is read). Files are
 * judged by their bytes: PNG, JPEG or WebP; a mask is a PNG with transparency of the image's size.
 * Errors in Shape B.
 */
import { z } from 'zod';
import type { ModelInfo } from '../../catalog';
import type { Usage } from '../../pricing';
import type { Attachment } from '../../ports';
import { fixedShape, type EndpointSpec } from '../endpoint-spec';
import { checkDeltaOptions, checkServedOn, deltaWorstCase, invalidImageRequest } from './delta-rules';
import { openAiImagesResponseSchema, type OpenAiImagesResponse } from './image-response';
import { sniffImage, type SniffedImage } from './image-sniff';

export const IMAGE_EDITS_PATH = '/v1/images/edits';
/** The largest uploaded file (OpenAI's own limit for its image models is 50 MB; 25 MiB here). */
export const MAX_EDIT_FILE_BYTES = 25 * 1024 * 1024;
/** Up to 16 images plus a mask. */
export const MAX_EDIT_FILES = 17;
export const MAX_EDIT_FIELDS = 20;
export const IMAGE_FIELDS = ['image', 'image[]'];

/** Multipart fields are text: numbers arrive as digits (and as numbers once decoded past the edge). */
const intField = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d{1,6}$/, 'must be an integer')
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));

export const imageEditRequestSchema = z.object({
  model: z.string().min(1),
  prompt: z.string().min(1, 'prompt must not be empty').max(32_000),
  n: intField(1, 10).optional(),
  size: z.string().max(16).optional(),
  quality: z.string().max(16).optional(),
  response_format: z.enum(['b64_json', 'url'], { error: 'response_format must be b64_json or url' }).optional(),
  output_format: z.string().max(8).optional(),
  output_compression: intField(0, 100).optional(),
  background: z.enum(['transparent', 'opaque', 'auto'], { error: 'background must be transparent, opaque or auto' }).optional(),
  input_fidelity: z.enum(['high', 'low']).optional(),
  user: z.string().max(256).optional(),
  // The mask is a file part (editFiles). A text field of that name is refused, not dropped: dropped,
  // the edit would go ahead unmasked and be billed.
  mask: z.never({ error: 'the mask must be sent as a file (a PNG), not as a text field' }).optional(),
});
export type ImageEditRequest = z.infer<typeof imageEditRequestSchema>;

/** The input images and the mask of a call, checked by their bytes. */
export function editFiles(model: ModelInfo, files: readonly Attachment[]): { images: SniffedImage[]; mask?: SniffedImage } {
  const unknown = files.find((f) => !IMAGE_FIELDS.includes(f.field) && f.field !== 'mask');
  if (unknown)
    throw invalidImageRequest(
      unknown.field,
      `Unknown file field '${unknown.field}'; send image (or image[]) and mask.`,
      'unknown_parameter',
    );
  const images = files.filter((f) => IMAGE_FIELDS.includes(f.field));
  if (images.length === 0) throw invalidImageRequest('image', "Invalid 'image': an image file is required.", 'missing_required_parameter');
  const max = model.image?.max_reference_images ?? 1;
  if (images.length > max)
    throw invalidImageRequest('image', `${model.id} takes at most ${max} image${max === 1 ? '' : 's'} per edit; got ${images.length}.`);
  const sniffed = images.map((f) => {
    const s = sniffImage(f.data);
    if (!s)
      throw invalidImageRequest(
        f.field,
        `Invalid image file '${f.filename}': unsupported image format. Upload PNG, JPEG or WebP.`,
        'invalid_image_format',
      );
    return s;
  });
  const masks = files.filter((f) => f.field === 'mask');
  if (masks.length === 0) return { images: sniffed };
  if (!model.image?.supports_mask) throw invalidImageRequest('mask', `${model.id} does not support a mask.`, 'unsupported_parameter');
  if (masks.length > 1) throw invalidImageRequest('mask', 'Only one mask may be sent.', 'invalid_mask');
  const mask = sniffImage(masks[0].data);
  if (!mask || mask.format !== 'png') throw invalidImageRequest('mask', 'Invalid mask: it must be a PNG.', 'invalid_mask');
  if (!mask.alpha)
    throw invalidImageRequest('mask', 'Invalid mask: it must have an alpha channel (transparent areas are edited).', 'invalid_mask');
  const first = sniffed[0];
  if (mask.width !== first.width || mask.height !== first.height)
    throw invalidImageRequest(
      'mask',
      `Invalid mask: its size ${mask.width}x${mask.height} differs from the image's ${first.width}x${first.height}.`,
      'invalid_mask',
    );
  return { images: sniffed, mask };
}

export function planImageEdit(model: ModelInfo, req: ImageEditRequest, files: readonly Attachment[]): Usage {
  checkServedOn(model, IMAGE_EDITS_PATH);
  const { images } = editFiles(model, files);
  checkDeltaOptions(model, req, false);
  return deltaWorstCase(model, req, images.length);
}

export const imageEditsSpec: EndpointSpec<ImageEditRequest, OpenAiImagesResponse> = {
  name: 'images.edits',
  path: IMAGE_EDITS_PATH,
  // The text fields of the multipart form (the image travels as a file part).
  example: { model: 'delta-image-2', prompt: 'Add a red kite to the sky' },
  service: 'media',
  request: imageEditRequestSchema,
  response: openAiImagesResponseSchema,
  kinds: ['image-edit'],
  units: ['input_tokens', 'image_input_tokens', 'output_tokens', 'images', 'image_size'],
  errorShape: fixedShape('B'),
  modelOf: (req) => req.model,
  isStream: () => false,
  plan: (model, req, files) => ({ worstCase: planImageEdit(model, req, files) }),
  body: { kind: 'multipart', maxFileBytes: MAX_EDIT_FILE_BYTES, maxFiles: MAX_EDIT_FILES, maxFields: MAX_EDIT_FIELDS },
};
