import { useEffect, useRef, useState } from 'react';
import { ResultsTable } from '../components/results-table';
import { useApi, type DatasetInfo } from '../hooks';
import { toGrid, type AplTable, type ResultGrid } from '../query-result';
import { navigate } from '../router';
import { runApl } from './query';

const POLL_MS = 2000;
const KEEP = 2000;

/**
 * Live tail: the latest events of a dataset, then every 2 s the events ingested since (by `_sysTime`,
 * the ingest time, so late `_time`s still show). Pause stops polling; Resume catches up.
 */
export default function StreamPage({ dataset }: { dataset: string | null }) {
  const datasets = useApi<DatasetInfo[]>('/v2/datasets');
  const [rows, setRows] = useState<Record<string, unknown>[]>([]);
  const [paused, setPaused] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const last = useRef<string | null>(null);

  useEffect(() => {
    setRows([]);
    last.current = null;
  }, [dataset]);

  useEffect(() => {
    if (!dataset || paused) return;
    let stopped = false;
    const quoted = `['${dataset.replace(/'/g, "\\'")}']`;
    const poll = async () => {
      const since = last.current;
      const apl = since
        ? `${quoted} | where _sysTime > datetime(${JSON.stringify(since)}) | sort by _sysTime asc | take 1000`
        : `${quoted} | sort by _sysTime desc, _time desc | take 100`;
      try {
        const res = await runApl(apl, { kind: 'quick', span: since ? '1d' : '1h' });
        if (stopped) return;
        // The first read is newest-first; later reads are oldest-first, so the newest ends up on top.
        const fresh = objects(res.tables[0]);
        const newestFirst = since ? fresh.reverse() : fresh;
        if (newestFirst.length > 0) {
          last.current = String(newestFirst[0]!._sysTime ?? last.current);
          setRows((old) => [...newestFirst, ...old].slice(0, KEEP));
        } else if (!since) {
          last.current = new Date(Date.now() - 1000).toISOString();
        }
        setError(null);
      } catch (err) {
        if (!stopped) setError((err as Error).message);
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [dataset, paused]);

  const grid = gridOf(rows);
  return (
    <section className="page">
      <div className="page-head">
        <h1>Stream</h1>
        <label htmlFor="stream-dataset">Dataset</label>
        <select
          id="stream-dataset"
          value={dataset ?? ''}
          onChange={(e) =>
            navigate(e.target.value ? `/stream/${encodeURIComponent(e.target.value)}` : '/stream')
          }
        >
          <option value="">Choose…</option>
          {(datasets.data ?? []).map((d) => (
            <option key={d.name} value={d.name}>
              {d.name}
            </option>
          ))}
        </select>
        {dataset && (
          <button type="button" onClick={() => setPaused(!paused)} aria-pressed={paused}>
            {paused ? 'Resume' : 'Pause'}
          </button>
        )}
        {dataset && (
          <span className="muted" role="status">
            {paused ? 'Paused' : 'Live'} · {rows.length} events
          </span>
        )}
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!dataset && <p className="muted">Choose a dataset to tail its new events.</p>}
      {dataset && <ResultsTable grid={grid} label="Events" height={560} />}
    </section>
  );
}

function objects(table: AplTable | undefined): Record<string, unknown>[] {
  if (!table) return [];
  const n = table.columns[0]?.length ?? 0;
  const out: Record<string, unknown>[] = [];
  for (let r = 0; r < n; r++) {
    const row: Record<string, unknown> = {};
    table.fields.forEach((f, c) => {
      const v = table.columns[c]![r];
      if (v !== null && v !== undefined) row[f.name] = v;
    });
    out.push(row);
  }
  return out;
}

function gridOf(rows: Record<string, unknown>[]): ResultGrid {
  const names = new Set<string>();
  for (const r of rows.slice(0, 200)) for (const k of Object.keys(r)) names.add(k);
  const fields = [...names].map((name) => ({ name, type: 'string' }));
  const table: AplTable = {
    name: 'stream',
    fields,
    columns: fields.map((f) => rows.map((r) => r[f.name] ?? null)),
  };
  return toGrid(table);
}
