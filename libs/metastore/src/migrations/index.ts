import type { Migration } from './migration';
import { migration0001 } from './0001-initial';
import { migration0002 } from './0002-rbac';
import { migration0003 } from './0003-resources';
import { migration0004 } from './0004-metrics';
import { migration0005 } from './0005-cluster';
import { migration0006 } from './0006-membership';
import { migration0007 } from './0007-regions';
import { migration0008 } from './0008-alerts';
import { migration0009 } from './0009-alerting-log';
import { migration0010 } from './0010-hec-channels';
import { migration0011 } from './0011-admission-counters';

export type { Migration } from './migration';

/** Every migration, in the order they are applied. Append new ones; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
];
