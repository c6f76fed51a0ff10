import { invalid, misdirected } from '@quarry/common';

/** What a region decision needs of a dataset. */
export interface RegionalDataset {
  name: string;
  /** '' = the installation's home region. */
  region: string;
}

export interface RegionConfig {
  region: string;
  homeRegion: string;
  regions: Record<string, string>;
}

/**
 * The installation's regions (Axiom's edge deployments) as this node sees them: the region its cluster
 * serves, the home region, and each region's public URL (`QUARRY_REGIONS`). One metastore serves every
 * region — management, tokens and datasets are the installation's — while each region's cluster keeps
 * its own Kafka, object store and coordination tables (docs/architecture.md, "Regions").
 */
export class Regions {
  readonly here: string;
  readonly home: string;
  private readonly urls: Record<string, string>;

  constructor(config: RegionConfig) {
    this.here = config.region;
    this.home = config.homeRegion;
    this.urls = config.regions;
  }

  /** Whether the installation has regions besides this one (else nothing here is regional). */
  get multiRegion(): boolean {
    return this.known().length > 1;
  }

  /** Every region this node knows of, sorted: the home region, this one, and `QUARRY_REGIONS`. */
  known(): string[] {
    return [...new Set([this.home, this.here, ...Object.keys(this.urls)])].sort();
  }

  regionOf(dataset: RegionalDataset): string {
    return dataset.region === '' ? this.home : dataset.region;
  }

  /** Whether this region's cluster stores the dataset (ingests, compacts, merges and scans it). */
  isLocal(dataset: RegionalDataset): boolean {
    return this.regionOf(dataset) === this.here;
  }

  /** A region's public URL, when configured. */
  urlOf(region: string): string | undefined {
    return this.urls[region];
  }

  /** The region a new dataset goes to: the one asked for (a known region), else the home region. */
  forNewDataset(requested: string | undefined): string {
    if (requested === undefined || requested === '') return this.home;
    if (!this.known().includes(requested))
      throw invalid(
        `edgeDeployment "${requested}" is not a region of this installation; known: ${this.known().join(', ')}`,
        { code: 'region_unknown', details: { field: 'edgeDeployment', known: this.known() } },
      );
    return requested;
  }

  /**
   * Refuses work on a dataset this region does not store (ingest, edge queries): 421 with where the
   * dataset lives, so a client can send it there.
   */
  assertLocal(dataset: RegionalDataset, what: string): void {
    if (this.isLocal(dataset)) return;
    throw this.misdirectedError(dataset, what);
  }

  misdirectedError(dataset: RegionalDataset, what: string) {
    const region = this.regionOf(dataset);
    const url = this.urlOf(region);
    return misdirected(
      `dataset "${dataset.name}" lives in region "${region}"${url ? ` (${url})` : ''}, not "${this.here}": ` +
        `send ${what} there`,
      {
        code: 'dataset_in_other_region',
        details: { dataset: dataset.name, region, ...(url ? { url } : {}) },
      },
    );
  }
}
