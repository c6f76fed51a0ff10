import { ConnectionNotReadyError } from './connection-resolver';
import { outcomeOfError } from './error-outcome';
import { KubeConflictError } from './kube-objects.port';
import { ManagementError } from './management-api.port';

describe('outcomeOfError: the one table from error to conditions and retry', () => {
  it.each([
    [
      '503 with Retry-After',
      new ManagementError('Unavailable', 'm', 503, 7_000),
      'ManagementAPIUnavailable',
      undefined,
      { requeue: 'backoff', notBeforeMs: 7_000 },
    ],
    [
      'timeout',
      new ManagementError('Unavailable', 'timed out'),
      'ManagementAPIUnavailable',
      undefined,
      { requeue: 'backoff' },
    ],
    [
      '401',
      new ManagementError('Unauthorized', 'm', 401),
      'Unauthorized',
      undefined,
      { requeue: 'after', afterMs: 300_000 },
    ],
    [
      '403',
      new ManagementError('Unauthorized', 'm', 403),
      'Unauthorized',
      undefined,
      { requeue: 'after', afterMs: 300_000 },
    ],
    [
      '422',
      new ManagementError('Invalid', 'bad field', 422),
      'ReconcileError',
      'InvalidSpec',
      { requeue: 'none' },
    ],
    [
      '400',
      new ManagementError('Invalid', 'bad field', 400),
      'ReconcileError',
      'InvalidSpec',
      { requeue: 'none' },
    ],
    [
      'unexpected 404',
      new ManagementError('NotFound', 'm', 404),
      'ReconcileError',
      undefined,
      { requeue: 'backoff' },
    ],
    [
      'unexpected 409',
      new ManagementError('Conflict', 'm', 409),
      'ReconcileError',
      undefined,
      { requeue: 'backoff' },
    ],
    [
      'connection not ready',
      new ConnectionNotReadyError('no Secret'),
      'ReconcileError',
      'ConnectionNotReady',
      { requeue: 'after', afterMs: 30_000 },
    ],
    ['a bug', new TypeError('x is undefined'), 'ReconcileError', undefined, { requeue: 'backoff' }],
  ])('%s → Synced %s, Ready %s, %j', (_, error, synced, ready, result) => {
    const outcome = outcomeOfError(error);
    expect(outcome.synced).toMatchObject({ status: 'False', reason: synced, message: error.message });
    expect(outcome.ready?.reason).toBe(ready);
    expect(outcome.result).toMatchObject(result);
  });

  it('writes no status for a lost resourceVersion race and retries shortly, not as an error', () => {
    expect(outcomeOfError(new KubeConflictError('stale'))).toEqual({
      result: { requeue: 'after', afterMs: 1_000 },
    });
  });
});
