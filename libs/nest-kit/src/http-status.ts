import type { ErrorKind } from '@quarry/common';

/** The one table that maps error kinds to HTTP statuses (DESIGN.md §5). */
export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  misdirected: 421,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  insufficient_storage: 507,
};
