/**
 * Image models: the alpha multimodal family (SPEC.md §2.3), the delta edit family (§2.4) and the gamma
 * interaction-style family (§2.5). Alpha and gamma bill per output image; delta image models bill by tokens
 * like their vendor (text input, image input, image output), the legacy delta-e-2 per image by size.
 */
import type { ImageLimits, ModelInfo } from '@unigate/contracts';
import { usd } from './usd';

const ALPHA_SIZES = ['1024*1024', '1664*928', '1472*1140', '1328*1328', '1140*1472', '928*1664', '1280*720', '720*1280'];
const ALPHA_GENERATE: ImageLimits = {
  sizes: ALPHA_SIZES,
  default_size: '1024*1024',
  max_n: 1,
  min_reference_images: 0,
  max_reference_images: 0,
};
const ALPHA_EDIT: ImageLimits = { ...ALPHA_GENERATE, min_reference_images: 1, max_reference_images: 3 };

function alpha(id: string, kind: 'image' | 'image-edit', perImage: number, created: number, description: string): ModelInfo {
  return {
    id,
    family: 'alpha',
    kind,
    owned_by: 'alpha',
    created,
    description,
    prices: { input_per_mtok: 0, output_per_mtok: 0, per_image: usd(perImage) },
    endpoints: ['/v1/images/generations'],
    image: kind === 'image' ? ALPHA_GENERATE : ALPHA_EDIT,
  };
}

const DELTA_QUALITIES = ['auto', 'low', 'medium', 'high', 'standard', 'hd'];
const DELTA_GPT_LIMITS: ImageLimits = {
  sizes: ['auto', '1024x1024', '1024x1536', '1536x1024'],
  default_size: 'auto',
  max_n: 10,
  min_reference_images: 1,
  max_reference_images: 16,
  supports_mask: true,
  output_formats: ['png', 'jpeg', 'webp'],
  qualities: DELTA_QUALITIES,
};

const BASIC_RATIOS = ['1:1', '16:9', '9:16', '3:2', '2:3', '4:3', '3:4', '5:4', '4:5'];

function gamma(
  id: string,
  created: number,
  description: string,
  inputPerMtok: number,
  bySize: Record<string, number>,
  image: ImageLimits,
): ModelInfo {
  const perImageBySize = Object.fromEntries(Object.entries(bySize).map(([k, v]) => [k, usd(v)]));
  return {
    id,
    family: 'gamma',
    kind: 'image',
    owned_by: 'gamma',
    created,
    description,
    // The Interactions API's input limit for these models: what bounds a continuation's hold, whose
    // earlier turns the upstream reads and the gateway never sees (contracts, planGammaGeneration).
    context_window: 65_536,
    prices: { input_per_mtok: usd(inputPerMtok), output_per_mtok: 0, per_image: perImageBySize['1K'], per_image_by_size: perImageBySize },
    endpoints: ['/v1/images/generations'],
    image,
  };
}

export const IMAGE_MODELS: ModelInfo[] = [
  alpha('alpha-image-2.0', 'image', 0.03, 1767225600, 'Alpha text-to-image.'),
  alpha('alpha-image-2.0-pro', 'image', 0.05, 1767225600, 'Alpha text-to-image, higher fidelity.'),
  alpha('alpha-image-max', 'image', 0.075, 1769904000, 'Alpha text-to-image, best quality.'),
  alpha('alpha-image-edit', 'image-edit', 0.03, 1767225600, 'Alpha image editing with 1 to 3 reference images.'),
  alpha('alpha-image-edit-plus', 'image-edit', 0.045, 1767225600, 'Alpha image editing, higher fidelity.'),
  alpha('alpha-image-edit-max', 'image-edit', 0.075, 1769904000, 'Alpha image editing, best quality.'),
  {
    id: 'delta-image-2',
    family: 'delta',
    kind: 'image-edit',
    owned_by: 'delta',
    created: 1772323200,
    description: 'Recommended delta image model: edits, and freeform sizes up to 3840 px on generations.',
    prices: { input_per_mtok: usd(5), cached_input_per_mtok: usd(1.25), image_input_per_mtok: usd(8), output_per_mtok: usd(30) },
    endpoints: ['/v1/images/edits', '/v1/images/generations'],
    image: { ...DELTA_GPT_LIMITS, freeform_size: { max_side: 3840, multiple_of: 16, max_ratio: 3 } },
  },
  {
    id: 'delta-image-1',
    family: 'delta',
    kind: 'image-edit',
    owned_by: 'delta',
    created: 1745366400,
    description: 'Delta image model, first generation.',
    prices: { input_per_mtok: usd(5), cached_input_per_mtok: usd(1.25), image_input_per_mtok: usd(10), output_per_mtok: usd(40) },
    endpoints: ['/v1/images/edits', '/v1/images/generations'],
    image: DELTA_GPT_LIMITS,
  },
  {
    id: 'delta-e-2',
    family: 'delta',
    kind: 'image-edit',
    owned_by: 'delta',
    created: 1698796800,
    description: 'Legacy delta model: one image, square sizes, can answer with URLs.',
    prices: {
      input_per_mtok: 0,
      output_per_mtok: 0,
      per_image: usd(0.02),
      per_image_by_size: { '256x256': usd(0.016), '512x512': usd(0.018), '1024x1024': usd(0.02) },
    },
    endpoints: ['/v1/images/edits'],
    image: {
      sizes: ['256x256', '512x512', '1024x1024'],
      default_size: '1024x1024',
      max_n: 10,
      min_reference_images: 1,
      max_reference_images: 1,
      supports_mask: true,
      output_formats: ['png'],
      qualities: ['auto', 'standard'],
    },
  },
  gamma(
    'gamma-3.1-flash-image-preview',
    1771891200,
    'Gamma fast image model: 512px to 4K, 13 aspect ratios, up to 14 reference images.',
    0.5,
    { '512px': 0.045, '1K': 0.067, '2K': 0.101, '4K': 0.151 },
    {
      image_sizes: ['512px', '1K', '2K', '4K'],
      aspect_ratios: [...BASIC_RATIOS, '1:4', '4:1', '1:8', '8:1'],
      max_n: 1,
      min_reference_images: 0,
      max_reference_images: 14,
      thinking_levels: ['minimal', 'high'],
    },
  ),
  gamma(
    'gamma-3-pro-image-preview',
    1763596800,
    'Gamma studio-quality image model: 1K to 4K.',
    2,
    { '1K': 0.134, '2K': 0.134, '4K': 0.24 },
    {
      image_sizes: ['1K', '2K', '4K'],
      aspect_ratios: BASIC_RATIOS,
      max_n: 1,
      min_reference_images: 0,
      max_reference_images: 14,
      thinking_levels: ['minimal', 'high'],
    },
  ),
  gamma(
    'gamma-2.5-flash-image',
    1759363200,
    'Gamma image model, 1K only.',
    0.3,
    { '1K': 0.039 },
    {
      image_sizes: ['1K'],
      aspect_ratios: BASIC_RATIOS,
      max_n: 1,
      min_reference_images: 0,
      max_reference_images: 3,
    },
  ),
  gamma(
    'gamma-2.5-flash-image-preview',
    1756166400,
    'Preview of the gamma 2.5 image model, 1K only.',
    0.3,
    { '1K': 0.039 },
    {
      image_sizes: ['1K'],
      aspect_ratios: BASIC_RATIOS,
      max_n: 1,
      min_reference_images: 0,
      max_reference_images: 3,
    },
  ),
];
