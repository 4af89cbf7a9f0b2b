import { SetMetadata } from '@nestjs/common';
import type { ErrorShape } from '@unigate/contracts';

export const ERROR_SHAPE = 'unigate:error-shape';
/** Which error body an endpoint speaks (SPEC.md §7): Shape A, Shape B (default) or Anthropic's. */
export const ErrorShapeOf = (shape: ErrorShape) => SetMetadata(ERROR_SHAPE, shape);
