import { QuarryError, invalid } from '@quarry/common';

export type BodyFormat = 'json' | 'ndjson' | 'csv';

const BY_MEDIA_TYPE: Record<string, BodyFormat> = {
  'application/json': 'json',
  'application/x-ndjson': 'ndjson',
  'application/nd-json': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonlines': 'ndjson',
  'application/x-jsonlines': 'ndjson',
  'text/csv': 'csv',
};

const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/**
 * Picks the body format from `Content-Type` (parameters such as `charset=utf-8` allowed). A missing type is
 * sniffed from `first`, the body's first non-whitespace character: a body that starts with `[` or `{` is
 * JSON; anything else is refused rather than guessed as CSV, since a guess would turn garbage into events.
 */
export function detectBodyFormat(contentType: string | undefined, first: string): BodyFormat {
  const raw = (contentType ?? '').trim();
  if (raw === '') {
    if (first === '[' || first === '{' || first === '') return 'json';
    throw invalid(
      'cannot tell the body format: no Content-Type and the body is not JSON; send text/csv for CSV',
      {
        code: 'ingest_unknown_format',
      },
    );
  }
  const [mediaType, ...params] = raw.split(';');
  const format = BY_MEDIA_TYPE[mediaType.trim().toLowerCase()];
  if (!format) {
    throw new QuarryError(
      'unsupported_media_type',
      `unsupported Content-Type "${mediaType.trim().slice(0, 60)}"; use application/json, application/x-ndjson or text/csv`,
      { code: 'ingest_unsupported_content_type' },
    );
  }
  for (const p of params) {
    const [k, v = ''] = p.split('=');
    if (k.trim().toLowerCase() !== 'charset') continue;
    const charset = v.trim().replace(/^"|"$/g, '').toLowerCase();
    if (!UTF8_CHARSETS.has(charset)) {
      throw new QuarryError(
        'unsupported_media_type',
        `unsupported charset "${charset.slice(0, 40)}"; bodies must be UTF-8`,
        {
          code: 'ingest_unsupported_charset',
        },
      );
    }
  }
  return format;
}
