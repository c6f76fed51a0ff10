import { forbidden } from '@quarry/common';
import { hasDatasetCapability, type Action, type DatasetCapability, type Principal } from '@quarry/server';

/**
 * Dataset capabilities of resources that name their datasets in the body or the stored record (virtual
 * fields, starred queries, monitors), so a route rule cannot check them. A resource tied to no dataset
 * needs the capability on every dataset (`"*"`).
 */
export function holdsDatasetCapability(
  principal: Principal,
  datasets: readonly string[],
  capability: DatasetCapability,
  action: Action,
): boolean {
  const targets = datasets.length ? datasets : ['*'];
  return targets.every((d) => hasDatasetCapability(principal.datasetCapabilities, d, capability, action));
}

export function requireDatasetCapability(
  principal: Principal,
  datasets: readonly string[],
  capability: DatasetCapability,
  action: Action,
): void {
  if (holdsDatasetCapability(principal, datasets, capability, action)) return;
  const missing = datasets.length
    ? datasets.filter((d) => !hasDatasetCapability(principal.datasetCapabilities, d, capability, action))
    : ['*'];
  throw forbidden(
    `this token lacks the ${capability}|${action} capability on dataset ${missing.map((d) => `"${d}"`).join(', ')}`,
    { code: 'auth_forbidden' },
  );
}
