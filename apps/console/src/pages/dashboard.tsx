import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent } from 'react';
import { GridLayout, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { api, ApiError } from '../api';
import { ResultsTable } from '../components/results-table';
import {
  addChart,
  CHART_TYPES,
  normalizeLayout,
  quickSpan,
  removeChart,
  type ChartType,
  type DashboardChart,
  type DashboardDocument,
  type DashboardResource,
} from '../dashboard-model';
import { useApi, type DatasetInfo } from '../hooks';
import {
  formatCell,
  pieArcs,
  toGrid,
  toSlices,
  toTimeSeries,
  type AplResponse,
  type Slice,
} from '../query-result';
import { Link, navigate, useLocation } from '../router';
import { QUICK_RANGES, type TimeRange } from '../url-state';
import { runApl } from './query';
import { datasetOf } from '../apl/completion';
import { knownDataset, useDatasetFields } from '../hooks';

const AplEditor = lazy(() => import('../components/apl-editor'));
const TimeChart = lazy(() => import('../components/time-chart'));

const REFRESH = [
  { seconds: 15, label: 'Every 15 s' },
  { seconds: 60, label: 'Every 1 min' },
  { seconds: 300, label: 'Every 5 min' },
] as const;

/**
 * One dashboard: its elements on a 12-column grid (drag by the title, resize from the corner), a time
 * window kept in the URL (`t_qr`), auto-refresh, "Add chart" and "Save" (PUT /v2/dashboards/uid/{uid}).
 */
export default function DashboardPage({ uid }: { uid: string }) {
  const location = useLocation();
  const loaded = useApi<DashboardResource>(`/v2/dashboards/uid/${encodeURIComponent(uid)}`);
  const [doc, setDoc] = useState<DashboardDocument | null>(null);
  const [version, setVersion] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [adding, setAdding] = useState(false);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [tick, setTick] = useState(0);
  const { width, containerRef, mounted } = useContainerWidth();

  useEffect(() => {
    if (loaded.data) {
      setDoc(loaded.data.dashboard);
      setVersion(loaded.data.version);
    }
  }, [loaded.data]);

  // The window: `t_ts`/`t_te` (absolute) or `t_qr` (quick) in the URL, else the document's own.
  const params = new URLSearchParams(location.search);
  const urlSpan = params.get('t_qr');
  const span =
    urlSpan && /^\d+[mhd]$/.test(urlSpan) ? urlSpan : doc ? (quickSpan(doc.timeWindowStart) ?? '1h') : '1h';
  const ts = params.get('t_ts');
  const te = params.get('t_te');
  const absolute =
    ts && te && !Number.isNaN(Date.parse(ts)) && !Number.isNaN(Date.parse(te)) ? { ts, te } : null;
  const range: TimeRange = useMemo(
    () => (absolute ? { kind: 'absolute', start: absolute.ts, end: absolute.te } : { kind: 'quick', span }),
    [absolute?.ts, absolute?.te, span],
  );

  useEffect(() => {
    if (!doc) return;
    const timer = setInterval(() => setTick((t) => t + 1), doc.refreshTime * 1000);
    return () => clearInterval(timer);
  }, [doc?.refreshTime]);

  if (loaded.error) {
    return (
      <section className="page">
        <p role="alert" className="error">
          {loaded.error.message}
        </p>
        <Link href="/dashboards">All dashboards</Link>
      </section>
    );
  }
  if (!doc) return <p className="muted">Loading dashboard…</p>;

  const update = (next: DashboardDocument) => {
    setDoc(next);
    setDirty(true);
  };

  const save = async () => {
    setMessage(null);
    try {
      const res = await api<{ dashboard: DashboardResource }>(
        'PUT',
        `/v2/dashboards/uid/${encodeURIComponent(uid)}`,
        {
          dashboard: { ...doc, uid },
          version,
        },
      );
      setVersion(res.dashboard.version);
      setDirty(false);
      setMessage({ text: `Saved (version ${res.dashboard.version}).` });
    } catch (err) {
      setMessage({ text: `Not saved: ${(err as Error).message}`, error: true });
    }
  };

  const remove = async () => {
    if (!window.confirm(`Delete the dashboard ${doc.name}?`)) return;
    try {
      await api('DELETE', `/v2/dashboards/uid/${encodeURIComponent(uid)}`);
      navigate('/dashboards');
    } catch (err) {
      setMessage({ text: (err as Error).message, error: true });
    }
  };

  const setSpan = (next: string) => {
    const search = new URLSearchParams(location.search);
    search.delete('t_ts');
    search.delete('t_te');
    search.set('t_qr', next);
    navigate(`/dashboards/${encodeURIComponent(uid)}?${search.toString()}`, { replace: true });
    update({ ...doc, timeWindowStart: `qr-now-${next}`, timeWindowEnd: 'qr-now' });
  };

  const charts = new Map(doc.charts.map((c) => [c.id, c]));
  return (
    <section className="page dashboard-page">
      <p className="breadcrumb">
        <Link href="/dashboards">All dashboards</Link>
      </p>
      <div className="page-head">
        <h1>{doc.name}</h1>
        <select
          aria-label="Time window"
          value={absolute ? 'absolute' : span}
          onChange={(e) => e.target.value !== 'absolute' && setSpan(e.target.value)}
        >
          {QUICK_RANGES.map((r) => (
            <option key={r.span} value={r.span}>
              {r.label}
            </option>
          ))}
          {absolute && (
            <option value="absolute">
              {absolute.ts} – {absolute.te}
            </option>
          )}
        </select>
        <select
          aria-label="Auto-refresh"
          value={doc.refreshTime}
          onChange={(e) => update({ ...doc, refreshTime: Number(e.target.value) as 15 | 60 | 300 })}
        >
          {REFRESH.map((r) => (
            <option key={r.seconds} value={r.seconds}>
              {r.label}
            </option>
          ))}
        </select>
        {!adding && (
          <button type="button" onClick={() => setAdding(true)}>
            Add chart
          </button>
        )}
        <button type="button" className="primary" onClick={() => void save()}>
          Save
        </button>
        <button type="button" className="danger" onClick={() => void remove()}>
          Delete dashboard
        </button>
        {dirty && <span className="muted">Unsaved changes</span>}
      </div>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : 'muted'}>
          {message.text}
        </p>
      )}
      {adding && (
        <AddChartForm
          onCancel={() => setAdding(false)}
          onAdd={(chart) => {
            update(addChart(doc, chart));
            setAdding(false);
          }}
        />
      )}
      <div ref={containerRef} className="grid-host">
        {mounted && (
          <GridLayout
            width={width}
            layout={doc.layout}
            gridConfig={{ cols: 12, rowHeight: 60 }}
            dragConfig={{ handle: '.tile-head' }}
            onLayoutChange={(layout: Layout) => {
              const next = normalizeLayout(layout);
              if (JSON.stringify(next) !== JSON.stringify(doc.layout)) update({ ...doc, layout: next });
            }}
          >
            {doc.layout.map((item) => {
              const chart = charts.get(item.i);
              return (
                <div key={item.i} className="tile card">
                  <div className="tile-head">
                    <h2>{chart?.name ?? chart?.type ?? item.i}</h2>
                    <button
                      type="button"
                      className="tile-remove"
                      aria-label={`Remove ${chart?.name ?? item.i}`}
                      onClick={() => update(removeChart(doc, item.i))}
                      onMouseDown={(e) => e.stopPropagation()}
                    >
                      ×
                    </button>
                  </div>
                  <div className="tile-body">
                    {chart ? <Tile chart={chart} range={range} tick={tick} /> : null}
                  </div>
                </div>
              );
            })}
          </GridLayout>
        )}
      </div>
      {doc.charts.length === 0 && !adding && (
        <p className="muted">No elements yet: “Add chart” to add one.</p>
      )}
    </section>
  );
}

function AddChartForm({ onAdd, onCancel }: { onAdd(chart: DashboardChart): void; onCancel(): void }) {
  const [type, setType] = useState<ChartType>('TimeSeries');
  const [title, setTitle] = useState('');
  const [apl, setApl] = useState('');
  const [text, setText] = useState('');
  const datasets = useApi<DatasetInfo[]>('/v2/datasets');
  const fields = useDatasetFields(knownDataset(datasetOf(apl), datasets.data));

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const id = `c${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
    const label = CHART_TYPES.find((c) => c.type === type)!.label;
    if (type === 'Note') {
      if (!text.trim()) return;
      onAdd({ id, type, text });
      return;
    }
    if (!apl.trim()) return;
    onAdd({ id, type, name: title.trim() || label, query: { apl } });
  };

  return (
    <form className="card add-chart" onSubmit={submit} aria-labelledby="add-chart-title">
      <h2 id="add-chart-title">New element</h2>
      <div className="form-row">
        <label htmlFor="chart-type">Element type</label>
        <select id="chart-type" value={type} onChange={(e) => setType(e.target.value as ChartType)}>
          {CHART_TYPES.map((c) => (
            <option key={c.type} value={c.type}>
              {c.label}
            </option>
          ))}
        </select>
        {type !== 'Note' && (
          <>
            <label htmlFor="chart-title">Title</label>
            <input id="chart-title" value={title} onChange={(e) => setTitle(e.target.value)} />
          </>
        )}
      </div>
      {type === 'Note' ? (
        <>
          <label htmlFor="note-text">Note text (Markdown)</label>
          <textarea id="note-text" rows={4} value={text} onChange={(e) => setText(e.target.value)} />
        </>
      ) : (
        <Suspense fallback={<div className="editor-loading muted">Loading editor…</div>}>
          <AplEditor
            value={apl}
            onChange={setApl}
            onRun={() => submit()}
            label="APL query"
            completion={{ datasets: (datasets.data ?? []).map((d) => d.name), fields }}
          />
        </Suspense>
      )}
      <div className="row">
        <button type="submit" className="primary">
          Add
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One element's content: runs its query for the window (again on each refresh tick). */
function Tile({ chart, range, tick }: { chart: DashboardChart; range: TimeRange; tick: number }) {
  const [result, setResult] = useState<AplResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const apl = chart.query?.apl;

  useEffect(() => {
    if (!apl) return;
    const abort = new AbortController();
    runApl(apl, range, abort.signal).then(
      (r) => {
        setResult(r);
        setError(null);
      },
      (err: Error) => {
        if (abort.signal.aborted) return;
        setError(err instanceof ApiError && err.position ? `${err.message}` : err.message);
      },
    );
    return () => abort.abort();
  }, [apl, range, tick]);

  if (chart.type === 'Note') return <NoteText text={String(chart.text ?? '')} />;
  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (!result) return <p className="muted">Loading…</p>;
  const table = result.tables[0];
  if (!table) return <p className="muted">No result.</p>;
  if (chart.type === 'Statistic') {
    const numeric = table.fields.findIndex((f) => /int|long|float|real|double/.test(f.type));
    const value = numeric >= 0 ? table.columns[numeric]?.[0] : table.columns[0]?.[0];
    return (
      <p className="statistic" aria-label={`${chart.name ?? 'Statistic'} value`}>
        {formatCell(value ?? '—')}
      </p>
    );
  }
  if (chart.type === 'Pie') return <PieChart name={chart.name ?? 'Pie'} slices={toSlices(table, 8, true)} />;
  if (chart.type === 'TopK') return <TopList name={chart.name ?? 'Top list'} slices={toSlices(table, 10)} />;
  if (chart.type === 'TimeSeries') {
    const series = toTimeSeries(table);
    if (series)
      return (
        <Suspense fallback={<p className="muted">Loading chart…</p>}>
          <TimeChart data={series} label={`${chart.name ?? 'Time series'} chart`} height={160} />
        </Suspense>
      );
  }
  return <ResultsTable grid={toGrid(table)} label={chart.name ?? 'Table'} height={200} />;
}

const PIE_COLOURS = [
  '#3b6fd8',
  '#e0792b',
  '#2f9e6e',
  '#c2415b',
  '#8a5cc7',
  '#c9a227',
  '#3aa3b5',
  '#7a7a7a',
  '#b56b3a',
];

/** A pie (SVG) with its legend as text; the drawing's accessible name says what it shows. */
function PieChart({ name, slices }: { name: string; slices: Slice[] }) {
  const arcs = pieArcs(slices, 60);
  if (!arcs.length) return <p className="muted">No values to draw.</p>;
  const total = slices.reduce((sum, s) => sum + Math.max(0, s.value), 0);
  return (
    <div className="pie">
      <svg role="img" aria-label={`${name} pie chart`} viewBox="0 0 120 120" width="120" height="120">
        {arcs.map((a, i) => (
          <path key={i} d={a.d} fill={PIE_COLOURS[i % PIE_COLOURS.length]} />
        ))}
      </svg>
      <ul className="pie-legend">
        {slices.map((s, i) => (
          <li key={s.label}>
            <span
              className="swatch"
              aria-hidden="true"
              style={{ background: PIE_COLOURS[i % PIE_COLOURS.length] }}
            />
            {s.label}: {formatCell(s.value)} ({Math.round((Math.max(0, s.value) / total) * 100)}%)
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The largest values first, each with a bar proportional to the largest. */
function TopList({ name, slices }: { name: string; slices: Slice[] }) {
  if (!slices.length) return <p className="muted">No values to list.</p>;
  const max = Math.max(...slices.map((s) => s.value), 0) || 1;
  return (
    <ol className="top-list" aria-label={`${name} top list`}>
      {slices.map((s) => (
        <li key={s.label}>
          <span className="top-label">{s.label}</span>
          <span className="top-value">{formatCell(s.value)}</span>
          <span
            className="top-bar"
            aria-hidden="true"
            style={{ width: `${Math.max(0, (s.value / max) * 100)}%` }}
          />
        </li>
      ))}
    </ol>
  );
}

/** Notes: Markdown headings, lists and paragraphs as text (no HTML from the document reaches the page). */
function NoteText({ text }: { text: string }) {
  return (
    <div className="note">
      {text.split(/\n{2,}/).map((block, i) => {
        const heading = /^(#{1,6})\s+(.*)$/.exec(block.trim());
        if (heading) {
          const level = Math.min(6, heading[1]!.length + 2);
          const Tag = `h${level}` as 'h3';
          return <Tag key={i}>{heading[2]}</Tag>;
        }
        if (/^\s*[-*]\s/.test(block))
          return (
            <ul key={i}>
              {block.split('\n').map((line, j) => (
                <li key={j}>{line.replace(/^\s*[-*]\s+/, '')}</li>
              ))}
            </ul>
          );
        return <p key={i}>{block}</p>;
      })}
    </div>
  );
}
