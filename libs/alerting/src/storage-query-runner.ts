import type { ResultTable } from '@quarry/contracts';
import { runMpl, type MplResult } from '@quarry/mpl';
import { runApl } from '@quarry/query';
import { METRICS_DATASET_KIND, type StorageRuntime, type VirtualFieldCache } from '@quarry/server';
import { notFound } from '@quarry/common';
import type { MonitorQuery, MonitorQueryRunner } from './query-runner';
import type { ResultRows, Row } from './result-rows';

/**
 * Runs monitor queries on this node's storage runtime, with the organization's full read access (a
 * monitor is the organization's, not its creator's): APL through `runApl`, MPL through `runMpl`, with
 * the same limits and offloads the query endpoints use.
 */
export class StorageQueryRunner implements MonitorQueryRunner {
  constructor(
    private readonly storage: StorageRuntime,
    private readonly virtualFields?: VirtualFieldCache,
  ) {}

  async run(query: MonitorQuery): Promise<ResultRows> {
    // Cluster: blocks another node registered since the last background refresh count too. A node that
    // follows the log (a query node) also waits for its tail; a management node reads blocks only.
    await this.storage.syncCatalog();
    await this.storage.readYourWrites(query.language === 'apl' ? 'events' : 'metrics');
    return query.language === 'apl' ? this.runApl(query) : this.runMpl(query);
  }

  private async runApl(query: MonitorQuery): Promise<ResultRows> {
    const { config } = this.storage;
    const output = await runApl(query.text, {
      startMs: query.startMs,
      endMs: query.endMs,
      nowMs: query.nowMs,
      catalog: this.storage.catalog,
      defaultLimit: config.queryDefaultLimit,
      virtualFields: this.virtualFields ? await this.virtualFields.current() : undefined,
      datasetNames: this.storage.registry
        .list()
        .filter((d) => d.kind !== METRICS_DATASET_KIND)
        .map((d) => d.name),
      limits: { maxGroups: config.queryMaxGroups, maxHeldRows: config.queryMaxHeldRows },
      offload: this.storage.queryOffload,
    });
    return rowsOfTable(output.tables[0]);
  }

  private async runMpl(query: MonitorQuery): Promise<ResultRows> {
    const { config, registry } = this.storage;
    const idOf = (name: string) => {
      const dataset = registry.getByName(name);
      if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
      return dataset.id;
    };
    const result = await runMpl(query.text, {
      source: this.storage.metrics.store.sourceFor(idOf),
      startSec: Math.floor(query.startMs / 1000),
      endSec: Math.floor(query.endMs / 1000),
      nowSec: Math.floor(query.nowMs / 1000),
      params: {},
      limits: {
        maxPoints: config.metricsMaxQueryPoints,
        maxSeries: config.metricsMaxQuerySeries,
        maxCells: config.metricsMaxQueryCells,
      },
    });
    return rowsOfSeries(result);
  }
}

/** An APL result table as rows; its `by` columns other than the time bin are the groups. */
export function rowsOfTable(table: ResultTable | undefined): ResultRows {
  if (!table) return { rows: [], groupFields: [] };
  const count = table.columns[0]?.length ?? 0;
  const rows: Row[] = [];
  for (let r = 0; r < count; r++) {
    const row: Row = {};
    table.fields.forEach((f, c) => (row[f.name] = table.columns[c][r]));
    rows.push(row);
  }
  const timeBin = table.buckets?.field;
  const groupFields = table.groups.map((g) => g.name).filter((g) => g !== timeBin && g !== '_time');
  return { rows, groupFields };
}

/** MPL series as rows: one per point that is not a gap, `{...tags, _time, value}`; tags are the groups. */
export function rowsOfSeries(result: MplResult): ResultRows {
  const rows: Row[] = [];
  const tags = new Set<string>();
  for (const series of result.series) {
    for (const t of Object.keys(series.tags)) tags.add(t);
    for (let i = 0; i < series.data.length; i++) {
      const value = series.data[i];
      if (Number.isNaN(value)) continue;
      const time = new Date((series.start + i * series.resolution) * 1000).toISOString();
      rows.push({ ...series.tags, _time: time, value });
    }
  }
  return { rows, groupFields: [...tags].sort() };
}
