import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError } from '../api';
import { datasetOf } from '../apl/completion';
import { timelineQuery } from '../apl/timeline';
import { ResultsTable } from '../components/results-table';
import { knownDataset, useApi, useDatasetFields, type DatasetInfo } from '../hooks';
import {
  rowObject,
  statusLine,
  toGrid,
  toTimeSeries,
  type AplResponse,
  type TimeSeries,
} from '../query-result';
import { Link, useLocation } from '../router';
import { formatQueryState, parseQueryState, QUICK_RANGES, rangeToApi, type TimeRange } from '../url-state';
import { StarredQueries } from './starred';

const AplEditor = lazy(() => import('../components/apl-editor'));
const TimeChart = lazy(() => import('../components/time-chart'));

interface Outcome {
  response: AplResponse;
  histogram: TimeSeries | null;
  ms: number;
}

export async function runApl(apl: string, range: TimeRange, signal?: AbortSignal): Promise<AplResponse> {
  return api<AplResponse>(
    'POST',
    '/v1/datasets/_apl?format=tabular',
    { apl, ...rangeToApi(range) },
    { signal },
  );
}

/** The Query page: APL editor, time range, Run (and Mod-Enter), status line, chart and virtualised table. */
export default function QueryPage() {
  const location = useLocation();
  const [initial] = useState(() => parseQueryState(location.search));
  const [apl, setApl] = useState(initial.apl);
  const [range, setRange] = useState<TimeRange>(initial.range);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [running, setRunning] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  const datasets = useApi<DatasetInfo[]>('/v2/datasets');
  const fields = useDatasetFields(knownDataset(datasetOf(apl), datasets.data));
  const latest = useRef({ apl, range });
  latest.current = { apl, range };

  const run = useCallback(async (fromUrl = false) => {
    const { apl: text, range: r } = latest.current;
    if (!text.trim()) return;
    if (!fromUrl) {
      const search = formatQueryState({ apl: text, range: r }, window.location.search);
      if (search !== window.location.search) history.pushState(null, '', `/query${search}`);
    }
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setRunning(true);
    setError(null);
    setSelected(null);
    const started = performance.now();
    try {
      const response = await runApl(text, r, abort.signal);
      const ms = performance.now() - started;
      if (abort.signal.aborted) return;
      setOutcome({ response, histogram: null, ms });
      setRunning(false);
      performance.mark('quarry:first-result');
      const table = response.tables[0];
      const series = table ? toTimeSeries(table) : null;
      if (
        table &&
        !series &&
        table.fields.some((f) => f.name === '_time') &&
        (table.columns[0]?.length ?? 0) > 0
      ) {
        // Raw events: one extra query for the timeline above them (never one per bucket), after the rows show.
        try {
          const h = await runApl(timelineQuery(text), r, abort.signal);
          const histogram = h.tables[0] ? toTimeSeries(h.tables[0]) : null;
          if (!abort.signal.aborted) setOutcome({ response, histogram, ms });
        } catch {
          // the timeline is an extra: the rows are shown without it
        }
      }
    } catch (err) {
      if (!abort.signal.aborted) {
        setOutcome(null);
        setError(err as Error);
      }
    } finally {
      if (!abort.signal.aborted) setRunning(false);
    }
  }, []);

  // A shared link runs as soon as it opens.
  useEffect(() => {
    if (initial.apl) void run(true);
  }, [initial, run]);

  // Back/forward between runs: restore and re-run.
  useEffect(() => {
    const onPop = () => {
      if (window.location.pathname !== '/query') return;
      const state = parseQueryState(window.location.search);
      setApl(state.apl);
      setRange(state.range);
      latest.current = state;
      void run(true);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [run]);

  const table = outcome?.response.tables[0];
  const grid = useMemo(() => (table ? toGrid(table) : null), [table]);
  const series = useMemo(() => (table ? toTimeSeries(table) : null), [table]);
  const position = error instanceof ApiError ? error.position : null;
  const rangeValue = range.kind === 'quick' ? range.span : 'absolute';

  return (
    <section className="page query-page">
      <div className="page-head">
        <h1>Query</h1>
        <Link href="/query/mpl" className="secondary-link">
          MPL explorer
        </Link>
      </div>
      <div className="query-box card">
        <Suspense fallback={<div className="editor-loading muted">Loading editor…</div>}>
          <AplEditor
            value={apl}
            onChange={setApl}
            onRun={() => void run()}
            label="APL query"
            completion={{ datasets: (datasets.data ?? []).map((d) => d.name), fields }}
            error={position ? { ...position, message: error!.message } : null}
          />
        </Suspense>
        <div className="toolbar">
          <select
            id="time-range"
            aria-label="Time range"
            value={rangeValue}
            onChange={(e) => {
              const span = e.target.value;
              if (span !== 'absolute') setRange({ kind: 'quick', span });
            }}
          >
            {QUICK_RANGES.map((r) => (
              <option key={r.span} value={r.span}>
                {r.label}
              </option>
            ))}
            {range.kind === 'absolute' && (
              <option value="absolute">
                {range.start} – {range.end}
              </option>
            )}
          </select>
          <button type="button" className="primary" onClick={() => void run()} disabled={running}>
            Run
          </button>
          <span className="hint muted" aria-hidden="true">
            Ctrl/⌘-Enter
          </span>
          <StarredQueries apl={apl} onOpen={(text) => setApl(text)} />
        </div>
      </div>

      {error && (
        <div role="alert" className="error card">
          <strong>{error instanceof ApiError ? `Error ${error.status}` : 'Error'}:</strong> {error.message}
          {position && (
            <span className="position">
              {' '}
              (line {position.line}, column {position.column})
            </span>
          )}
        </div>
      )}
      {running && <p className="muted">Running…</p>}
      {outcome && (
        <p className="status-line" data-testid="query-status">
          {statusLine(outcome.response.status)}
        </p>
      )}
      {outcome && (series || outcome.histogram) && (
        <div className="card">
          <Suspense fallback={<div className="chart-loading muted">Loading chart…</div>}>
            {series ? (
              <TimeChart data={series} label="Result chart" />
            ) : (
              <TimeChart
                data={outcome.histogram!}
                label="Events over time chart"
                height={120}
                variant="bars"
              />
            )}
          </Suspense>
        </div>
      )}
      {grid && (
        <div className={`results-area${selected !== null ? ' with-panel' : ''}`}>
          <ResultsTable grid={grid} label="Results" selected={selected} onSelect={setSelected} />
          {selected !== null && selected < grid.rowCount && (
            <aside className="event-panel card" aria-label="Event details">
              <div className="panel-head">
                <h2>Event</h2>
                <button
                  type="button"
                  onClick={() =>
                    void navigator.clipboard?.writeText(JSON.stringify(rowObject(grid, selected), null, 2))
                  }
                >
                  Copy JSON
                </button>
                <button type="button" onClick={() => setSelected(null)}>
                  Close
                </button>
              </div>
              <pre className="event-json">{JSON.stringify(rowObject(grid, selected), null, 2)}</pre>
            </aside>
          )}
        </div>
      )}
    </section>
  );
}
