import { invalid } from '@quarry/common';

export const DATASET_KINDS = [
  'axiom:events:v1',
  'otel:logs:v1',
  'otel:traces:v1',
  'otel:metrics:v1',
] as const;

const NAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,78}[A-Za-z0-9])?$/;

/** Dataset names as Axiom allows them: ≤ 80 of `[A-Za-z0-9._-]`, alphanumeric at both ends, no `axiom-` prefix. */
export function validateDatasetName(name: unknown): string {
  if (typeof name !== 'string' || name === '')
    throw invalid('"name" is required and must be a string', { code: 'dataset_name_invalid' });
  if (!NAME_RE.test(name)) {
    throw invalid(
      `dataset name "${name}" is invalid: use 1 to 80 letters, digits, ".", "-" or "_", starting and ending with a letter or digit`,
      { code: 'dataset_name_invalid' },
    );
  }
  if (name.startsWith('axiom-'))
    throw invalid(`dataset name "${name}" must not start with "axiom-"`, { code: 'dataset_name_invalid' });
  return name;
}

export interface DatasetInput {
  description?: string;
  kind?: (typeof DATASET_KINDS)[number];
  retentionDays?: number;
  useRetentionPeriod?: boolean;
  /** Create only: the region (edge deployment) to store it in; default the home region. */
  edgeDeployment?: string;
}

/** Validates the optional members shared by create and update; lists every problem. */
/** `creating`: a new dataset (kind and region may be chosen only then). */
export function validateDatasetInput(body: Record<string, unknown>, creating: boolean): DatasetInput {
  const problems: string[] = [];
  const out: DatasetInput = {};
  if (body.description !== undefined && body.description !== null) {
    if (typeof body.description !== 'string') problems.push('"description" must be a string');
    else if (body.description.length > 1024) problems.push('"description" must be at most 1024 characters');
    else out.description = body.description;
  }
  if (creating && body.kind !== undefined && body.kind !== null && body.kind !== '') {
    if (!DATASET_KINDS.includes(body.kind as never))
      problems.push(`"kind" must be one of ${DATASET_KINDS.join(', ')}`);
    else out.kind = body.kind as DatasetInput['kind'];
  }
  if (creating && body.edgeDeployment !== undefined && body.edgeDeployment !== null) {
    if (typeof body.edgeDeployment !== 'string') problems.push('"edgeDeployment" must be a string');
    else if (body.edgeDeployment !== '') out.edgeDeployment = body.edgeDeployment;
  }
  if (body.retentionDays !== undefined && body.retentionDays !== null) {
    if (!Number.isInteger(body.retentionDays) || (body.retentionDays as number) < 0)
      problems.push('"retentionDays" must be a non-negative integer');
    else out.retentionDays = body.retentionDays as number;
  }
  if (body.useRetentionPeriod !== undefined && body.useRetentionPeriod !== null) {
    if (typeof body.useRetentionPeriod !== 'boolean') problems.push('"useRetentionPeriod" must be a boolean');
    else out.useRetentionPeriod = body.useRetentionPeriod;
  }
  if (problems.length) throw invalid(`invalid dataset: ${problems.join('; ')}`, { code: 'dataset_invalid' });
  return out;
}

export function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('request body must be a JSON object', { code: 'body_invalid' });
  }
  return body as Record<string, unknown>;
}
