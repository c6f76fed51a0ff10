import type { Migration } from './migration';
import { migration0001 } from './0001-initial';

export type { Migration } from './migration';

/** Every migration, in the order they are applied. Append new ones; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [migration0001];
