import type { DatasetCapabilities, OrgCapabilities } from './capabilities';

/** Who is calling, resolved from the bearer token. */
export interface Principal {
  tokenId: string;
  tokenKind: 'api' | 'personal';
  /** The token's user (PAT) or creator (API token). */
  userId: string;
  orgId: string;
  orgCapabilities: OrgCapabilities;
  datasetCapabilities: DatasetCapabilities;
}
