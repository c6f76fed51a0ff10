import { invalid, parseRfc3339 } from '@quarry/common';
import { validateCapabilities, type DatasetCapabilities, type OrgCapabilities } from '@quarry/server';

/** A validated CreateAPIToken body (v2.json). */
export interface TokenInput {
  name: string;
  description: string;
  expiresAt: string | null;
  orgCapabilities: OrgCapabilities;
  datasetCapabilities: DatasetCapabilities;
  viewCapabilities: Record<string, Record<string, string[] | null>>;
}

const MAX_NAME = 200;
const MAX_DESCRIPTION = 1024;

/** Validates a CreateAPIToken object; `where` prefixes messages (`newToken.` inside regenerate). */
export function parseTokenInput(body: Record<string, unknown>, nowMs: number, where = ''): TokenInput {
  const problems: string[] = [];
  const { name, description, expiresAt, orgCapabilities, datasetCapabilities, viewCapabilities } = body;
  if (typeof name !== 'string' || name.trim() === '')
    problems.push(`"${where}name" is required and must be a string`);
  else if (name.length > MAX_NAME) problems.push(`"${where}name" must be at most ${MAX_NAME} characters`);
  if (description !== undefined && description !== null && typeof description !== 'string') {
    problems.push(`"${where}description" must be a string`);
  } else if (typeof description === 'string' && description.length > MAX_DESCRIPTION) {
    problems.push(`"${where}description" must be at most ${MAX_DESCRIPTION} characters`);
  }
  let expires: string | null = null;
  try {
    expires = parseExpiry(expiresAt, nowMs, `${where}expiresAt`);
  } catch (err) {
    problems.push((err as Error).message);
  }
  problems.push(...validateCapabilities(orgCapabilities, datasetCapabilities).map((p) => where + p));
  if (
    viewCapabilities !== undefined &&
    viewCapabilities !== null &&
    (typeof viewCapabilities !== 'object' || Array.isArray(viewCapabilities))
  ) {
    problems.push(`"${where}viewCapabilities" must be an object`);
  }
  if (problems.length) throw invalid(`invalid token: ${problems.join('; ')}`, { code: 'token_invalid' });
  return {
    name: (name as string).trim(),
    description: (description as string | undefined) ?? '',
    expiresAt: expires,
    orgCapabilities: (orgCapabilities as OrgCapabilities | null) ?? {},
    datasetCapabilities: (datasetCapabilities as DatasetCapabilities | null) ?? {},
    viewCapabilities: (viewCapabilities as TokenInput['viewCapabilities'] | null) ?? {},
  };
}

/**
 * An optional expiry: absent, null and Go's zero time mean "never"; otherwise an RFC 3339 time in the
 * future, returned as an ISO string.
 */
export function parseExpiry(value: unknown, nowMs: number, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalid(`"${field}" must be an RFC 3339 date-time or null`);
  if (value.startsWith('0001-01-01')) return null;
  const ms = parseRfc3339(value);
  if (ms === null) throw invalid(`"${field}" is not an RFC 3339 date-time: ${JSON.stringify(value)}`);
  if (ms <= nowMs) throw invalid(`"${field}" must be in the future`);
  return new Date(ms).toISOString();
}
