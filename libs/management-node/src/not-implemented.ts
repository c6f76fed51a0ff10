import { applyDecorators, HttpCode, SetMetadata } from '@nestjs/common';

export const NOT_IMPLEMENTED_REASON = 'quarry:not-implemented';

/**
 * Marks an operation Quarry answers with 501 on purpose, with the reason the coverage table
 * (docs/api-coverage.md) lists. The handler returns `notImplementedBody(reason)`.
 */
export const NotImplemented = (reason: string) =>
  applyDecorators(SetMetadata(NOT_IMPLEMENTED_REASON, reason), HttpCode(501));

/** The JSON error body of a 501, shaped like every other Quarry error. */
export function notImplementedBody(reason: string) {
  return { code: 'not_implemented', message: `not implemented: ${reason}` };
}
