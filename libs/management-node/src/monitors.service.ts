import { Inject, Injectable } from '@nestjs/common';
import { prefixedId } from '@quarry/common';
import { resourceNotFound, type ResourceRecord } from '@quarry/metastore';
import { referencedDatasets } from '@quarry/query';
import { type Principal, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { holdsDatasetCapability } from './dataset-capability';
import { parseMonitor, type MonitorDocument } from './monitors.input';

type MonitorRecord = ResourceRecord<MonitorDocument>;

/** One state change of an alert (AlertHistory). */
export interface AlertHistoryEntry {
  checkId: string;
  name: string;
  state: 'open' | 'closed';
  timestamp: string;
}

/**
 * Monitors (`/v2/monitors`): stored and validated here; evaluated by the scheduler of libs/alerting,
 * which writes the alert history this service serves (docs/monitors.md).
 */
@Injectable()
export class MonitorsService {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  /** Only monitors whose APL reads datasets the caller may query (api.md §1.7). */
  async list(principal: Principal): Promise<MonitorRecord[]> {
    const all = await this.storage.metastore.resources.list<MonitorDocument>('monitor');
    return all.filter(
      (m) => m.datasets.length === 0 || holdsDatasetCapability(principal, m.datasets, 'query', 'read'),
    );
  }

  async get(id: string): Promise<MonitorRecord> {
    const record = await this.storage.metastore.resources.get<MonitorDocument>('monitor', id);
    if (!record) throw resourceNotFound('monitor', id);
    return record;
  }

  create(body: Record<string, unknown>, who: string): Promise<MonitorRecord> {
    const doc = parseMonitor(body);
    return this.storage.metastore.resources.create('monitor', prefixedId('mon_'), contentOf(doc), who);
  }

  /** Replaces the whole monitor (PUT). */
  update(id: string, body: Record<string, unknown>, who: string): Promise<MonitorRecord> {
    return this.storage.metastore.resources.replace('monitor', id, contentOf(parseMonitor(body)), who);
  }

  async delete(id: string): Promise<void> {
    await this.storage.metastore.resources.delete('monitor', id);
    await this.storage.metastore.alerts.deleteMonitor(id);
  }

  /** Alert state changes of the monitor with `startMs <= timestamp <= endMs`, oldest first. */
  async history(id: string, startMs: number, endMs: number): Promise<AlertHistoryEntry[]> {
    await this.get(id);
    const rows = await this.storage.metastore.alerts.history(
      id,
      new Date(startMs).toISOString(),
      new Date(endMs).toISOString(),
    );
    return rows.map(({ checkId, name, state, timestamp }) => ({ checkId, name, state, timestamp }));
  }
}

function contentOf(doc: MonitorDocument) {
  return { datasets: doc.aplQuery ? referencedDatasets(doc.aplQuery) : [], document: doc };
}
