import { invalid, isQuarryError, parseRfc3339 } from '@quarry/common';
import { validateApl } from '@quarry/query';

interface Bounds {
  min?: number;
  max?: number;
}

/**
 * Reads the members of one request object and collects every problem, each naming its field, so a 400
 * lists all mistakes at once. Getters return `undefined` for an absent (or null) optional member.
 */
export class BodyReader {
  constructor(
    private readonly body: Record<string, unknown>,
    /** Prefix of field names in messages, e.g. `dashboard.` for members of a nested object. */
    private readonly path = '',
    /** Shared with nested readers, so one `finish` reports the problems of the whole body. */
    private readonly problems: string[] = [],
  ) {}

  /** A nested object member read with its own path prefix; its problems are reported with ours. */
  nested(field: string, required = false): BodyReader | undefined {
    const value = this.value(field, required);
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) return this.fail(field, 'must be an object');
    return new BodyReader(value, `${this.path}${field}.`, this.problems);
  }

  string(
    field: string,
    options: { required?: boolean; maxLength?: number; minLength?: number; pattern?: RegExp } = {},
  ): string | undefined {
    const value = this.value(field, options.required);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.fail(field, 'must be a string');
    // A required string must not be blank unless the caller allows it with `minLength: 0`.
    const minLength = options.minLength ?? (options.required ? 1 : 0);
    if (minLength > 0 && value.trim() === '') return this.fail(field, 'must not be empty');
    if (value.length < minLength) return this.fail(field, `must be at least ${minLength} characters`);
    if (options.maxLength !== undefined && value.length > options.maxLength)
      return this.fail(field, `must be at most ${options.maxLength} characters`);
    if (options.pattern && !options.pattern.test(value))
      return this.fail(field, `must match ${options.pattern.source}`);
    return value;
  }

  stringArray(field: string, options: { required?: boolean; minItems?: number } = {}): string[] | undefined {
    const value = this.value(field, options.required);
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === ''))
      return this.fail(field, 'must be an array of non-empty strings');
    if (options.minItems !== undefined && value.length < options.minItems)
      return this.fail(field, `must have at least ${options.minItems} item(s)`);
    return value as string[];
  }

  boolean(field: string): boolean | undefined {
    const value = this.value(field, false);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') return this.fail(field, 'must be a boolean');
    return value;
  }

  number(field: string, bounds: Bounds & { integer?: boolean; required?: boolean } = {}): number | undefined {
    const value = this.value(field, bounds.required);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fail(field, 'must be a number');
    if (bounds.integer && !Number.isInteger(value)) return this.fail(field, 'must be an integer');
    // 1e308 is an "integer" too, but not an exact one, nor one the metastore's bigint columns can hold.
    if (bounds.integer && !Number.isSafeInteger(value))
      return this.fail(field, 'must be between -(2^53-1) and 2^53-1');
    if (bounds.min !== undefined && value < bounds.min)
      return this.fail(field, `must be at least ${bounds.min}`);
    if (bounds.max !== undefined && value > bounds.max)
      return this.fail(field, `must be at most ${bounds.max}`);
    return value;
  }

  oneOf<T extends string | number>(field: string, allowed: readonly T[], required = false): T | undefined {
    const value = this.value(field, required);
    if (value === undefined) return undefined;
    if (!allowed.includes(value as T))
      return this.fail(field, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    return value as T;
  }

  /** An RFC 3339 date-time, returned as ISO; Go's zero time counts as absent. */
  dateTime(field: string, required = false): string | undefined {
    const value = this.value(field, required);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.fail(field, 'must be an RFC 3339 date-time');
    if (value.startsWith('0001-01-01')) return undefined;
    const ms = parseRfc3339(value);
    if (ms === null) return this.fail(field, `is not an RFC 3339 date-time: ${JSON.stringify(value)}`);
    return new Date(ms).toISOString();
  }

  /** An object whose values are all strings (starred query `metadata`, webhook headers). */
  stringMap(field: string, required = false): Record<string, string> | undefined {
    const value = this.value(field, required);
    if (value === undefined) return undefined;
    if (!isPlainObject(value) || Object.values(value).some((v) => typeof v !== 'string'))
      return this.fail(field, 'must be an object of strings');
    return value as Record<string, string>;
  }

  /** Records a problem found by the caller (cross-field rules). */
  problem(field: string, message: string): void {
    this.problems.push(`"${this.path}${field}" ${message}`);
  }

  /** Throws one `invalid` listing every problem, if there are any. */
  finish(what: string, code: string): void {
    if (this.problems.length) throw invalid(`invalid ${what}: ${this.problems.join('; ')}`, { code });
  }

  private value(field: string, required = false): unknown {
    const value = this.body[field];
    if (value === undefined || value === null) {
      if (required) this.problem(field, 'is required');
      return undefined;
    }
    return value;
  }

  private fail(field: string, message: string): undefined {
    this.problem(field, message);
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `limit` (1 to 1000, default 100) and `offset` (≥ 0, default 0) of paged lists. */
export function parsePaging(query: Record<string, unknown>): { limit: number; offset: number } {
  return {
    limit: integerParam(query.limit, 'limit', 100, 1, 1000),
    offset: integerParam(query.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

function integerParam(raw: unknown, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const text = Array.isArray(raw) ? raw[0] : raw;
  const n = typeof text === 'string' && /^-?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `${min} to ${max}`;
    throw invalid(`"${name}" must be an integer ${range}, not ${JSON.stringify(text)}`, {
      code: 'paging_invalid',
    });
  }
  return n;
}

/** A query parameter given as `a,b` (JS client) or repeated `a&a` (Go client), as a list. */
export function listParam(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).map(String);
  const items = values.flatMap((v) => v.split(',')).filter((v) => v !== '');
  return items.length ? items : undefined;
}

/** The first value of a query parameter that may repeat. */
export function singleParam(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  return String(Array.isArray(raw) ? raw[0] : raw);
}

/** Checks that an APL member parses; the 400 names the member (`invalid view: "aplQuery" …`). */
export function checkAplMember(apl: string, field: string, what: string, code: string): void {
  try {
    validateApl(apl);
  } catch (err) {
    if (isQuarryError(err) && err.kind === 'invalid')
      throw invalid(`invalid ${what}: "${field}" ${err.message}`, { code, span: err.span });
    throw err;
  }
}
