import type { ResourceRecord } from '@quarry/metastore';
import { validateBody } from './openapi-validation';
import { BodyReader, checkAplMember } from './resource-validation';

export const MONITOR_TYPES = ['Threshold', 'MatchEvent', 'AnomalyDetection'] as const;
export const MONITOR_OPERATORS = ['Below', 'BelowOrEqual', 'Above', 'AboveOrEqual', 'AboveOrBelow'] as const;

/** A monitor as stored: the client-writable members of the Monitor schema that were sent. */
export type MonitorDocument = Record<string, unknown> & { name: string; type: string; aplQuery?: string };

/** Members of Monitor that are server-owned: ignored on input. */
const SERVER_OWNED = ['id', 'createdAt', 'createdBy', 'updatedAt'];

/**
 * Validates a Monitor body (create and replace). Both official clients send `notifierIDs`; it is read as
 * `notifierIds`. Exactly one of `aplQuery` and `mplQuery` is required.
 */
export function parseMonitor(body: Record<string, unknown>): MonitorDocument {
  validateBody('POST /monitors', body);
  const input = { ...body };
  if (input.notifierIds === undefined && input.notifierIDs !== undefined)
    input.notifierIds = input.notifierIDs;
  delete input.notifierIDs;
  for (const member of SERVER_OWNED) delete input[member];

  const reader = new BodyReader(input);
  const doc: Record<string, unknown> = {
    name: reader.string('name', { required: true, maxLength: 256 }),
    type: reader.oneOf('type', MONITOR_TYPES, true),
    description: reader.string('description', { maxLength: 1024 }),
    aplQuery: reader.string('aplQuery', { maxLength: 100_000 }),
    mplQuery: reader.string('mplQuery', { maxLength: 100_000 }),
    operator: reader.oneOf('operator', MONITOR_OPERATORS),
    threshold: reader.number('threshold'),
    columnName: reader.string('columnName'),
    intervalMinutes: reader.number('intervalMinutes', { integer: true, min: 1 }),
    rangeMinutes: reader.number('rangeMinutes', { integer: true, min: 1 }),
    secondDelay: reader.number('secondDelay', { integer: true, min: 0, max: 86_400 }),
    compareDays: reader.number('compareDays', { integer: true, min: 0, max: 7 }),
    tolerance: reader.number('tolerance', { min: 0, max: 100 }),
    triggerFromNRuns: reader.number('triggerFromNRuns', { integer: true, min: 0 }),
    triggerAfterNPositiveResults: reader.number('triggerAfterNPositiveResults', { integer: true, min: 0 }),
    alertOnNoData: reader.boolean('alertOnNoData'),
    notifyByGroup: reader.boolean('notifyByGroup'),
    notifyEveryRun: reader.boolean('notifyEveryRun'),
    resolvable: reader.boolean('resolvable'),
    skipResolved: reader.boolean('skipResolved'),
    disabled: reader.boolean('disabled'),
    disabledUntil: reader.dateTime('disabledUntil'),
    notifierIds: reader.stringArray('notifierIds'),
  };
  const hasApl = doc.aplQuery !== undefined && doc.aplQuery !== '';
  const hasMpl = doc.mplQuery !== undefined && doc.mplQuery !== '';
  if (hasApl === hasMpl) reader.problem('aplQuery', 'or "mplQuery" is required, and only one of them');
  reader.finish('monitor', 'monitor_invalid');
  if (hasApl) checkAplMember(doc.aplQuery as string, 'aplQuery', 'monitor', 'monitor_invalid');
  return Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined)) as MonitorDocument;
}

/** MonitorWithId: the stored members, the id and the audit fields. */
export function monitorView(record: ResourceRecord<MonitorDocument>) {
  return {
    id: record.id,
    ...record.document,
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    updatedAt: record.updatedAt,
  };
}
