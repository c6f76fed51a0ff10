import { mainForRole } from '@quarry/server';

/**
 * A cluster compactor node (docs/architecture.md): no HTTP surface of its own beyond health and metrics;
 * the storage runtime runs compaction, merging and the orphan sweep.
 */
mainForRole('compactor', {});
