/**
 * The error taxonomy shared by every layer.
 *
 * A `QuarryError` is a value that says whose fault it is (`kind`) and what went wrong (`code`), so the
 * HTTP edge can pick the status without string matching, and logs/alerts can tell a user mistake from a
 * bug. Only `nest-kit` maps these to HTTP; libraries never import an HTTP framework.
 */

/** Source span in a query text: 1-based line and column of the first character, and offsets. */
export interface SourceSpan {
  /** 0-based offset of the first character. */
  start: number;
  /** 0-based offset one past the last character. */
  end: number;
  line: number;
  column: number;
}

export type ErrorKind =
  /** The request is malformed or the query is invalid (400). */
  | 'invalid'
  /** No or unknown credentials (401). */
  | 'unauthenticated'
  /** Valid credentials, insufficient capability (403). */
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** Request or entity larger than a limit (413). */
  | 'too_large'
  | 'unsupported_media_type'
  /** Sent to the wrong region: the dataset lives in another region's cluster (421). */
  | 'misdirected'
  /** A limit on rate or cost (429). */
  | 'rate_limited'
  /** Temporarily unable to serve: replaying the log, storage failed (503). */
  | 'unavailable'
  /** Out of disk (507). */
  | 'insufficient_storage'
  /** A bug or an unexpected failure (500). */
  | 'internal';

export interface QuarryErrorOptions {
  /** Stable machine-readable code, e.g. `apl_unknown_function`, `ingest_body_malformed`. */
  code?: string;
  span?: SourceSpan;
  /** Extra structured details that are safe to show to the caller. */
  details?: Record<string, unknown>;
  cause?: unknown;
  /** Seconds a client should wait before retrying (for `unavailable`, `rate_limited`, ...). */
  retryAfterSeconds?: number;
}

export class QuarryError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly span?: SourceSpan;
  readonly details?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(kind: ErrorKind, message: string, options: QuarryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'QuarryError';
    this.kind = kind;
    this.code = options.code ?? kind;
    this.span = options.span;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** True for errors caused by the caller (every kind except `internal`, `unavailable`, `insufficient_storage`). */
  get isUserError(): boolean {
    return this.kind !== 'internal' && this.kind !== 'unavailable' && this.kind !== 'insufficient_storage';
  }
}

export const invalid = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('invalid', message, options);
export const misdirected = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('misdirected', message, options);
export const notFound = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('not_found', message, options);
export const conflict = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('conflict', message, options);
export const forbidden = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('forbidden', message, options);
export const unauthenticated = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('unauthenticated', message, options);
export const tooLarge = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('too_large', message, options);
export const unavailable = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('unavailable', message, options);
export const internal = (message: string, options?: QuarryErrorOptions) =>
  new QuarryError('internal', message, options);

export function isQuarryError(err: unknown): err is QuarryError {
  return err instanceof QuarryError;
}

/** Computes the 1-based line and column of a 0-based offset in `text`. */
export function spanAt(text: string, start: number, end: number = start + 1): SourceSpan {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < start && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { start, end, line, column: start - lineStart + 1 };
}
