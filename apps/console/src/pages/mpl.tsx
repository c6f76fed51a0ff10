import { lazy, Suspense, useState, type FormEvent } from 'react';
import { api } from '../api';
import { useApi, type DatasetInfo } from '../hooks';
import type { TimeSeries } from '../query-result';
import { Link } from '../router';
import { QUICK_RANGES, rangeToApi } from '../url-state';

const TimeChart = lazy(() => import('../components/time-chart'));

interface MplSeries {
  metric: string;
  tags: Record<string, string>;
  start: string;
  resolution: number;
  data: (number | null)[];
}

/** Aligns metrics-v1 series (each with its own start) on one x axis of seconds. */
export function mplToTimeSeries(series: MplSeries[]): TimeSeries {
  const xsSet = new Set<number>();
  const points = series.map((s) => {
    const start = Date.parse(s.start) / 1000;
    const map = new Map<number, number | null>();
    s.data.forEach((v, i) => {
      const x = start + i * s.resolution;
      xsSet.add(x);
      map.set(x, v);
    });
    return map;
  });
  const xs = [...xsSet].sort((a, b) => a - b);
  return {
    xs,
    series: series.map((s, i) => ({
      name: [s.metric, ...Object.entries(s.tags).map(([k, v]) => `${k}=${v}`)].join(' '),
      values: xs.map((x) => points[i]!.get(x) ?? null),
    })),
  };
}

/** The MPL explorer: pick a metrics dataset and metric, write MPL, see the series. */
export default function MplPage() {
  const datasets = useApi<(DatasetInfo & { kind?: string })[]>('/v2/datasets');
  const metricsSets = (datasets.data ?? []).filter((d) => d.kind === 'otel:metrics:v1');
  const [dataset, setDataset] = useState('');
  const metrics = useApi<string[]>(
    dataset
      ? `/v1/query/metrics/info/datasets/${encodeURIComponent(dataset)}/metrics?start=${new Date(Date.now() - 86_400_000).toISOString()}&end=${new Date().toISOString()}`
      : null,
  );
  const [mpl, setMpl] = useState('');
  const [span, setSpan] = useState('1h');
  const [result, setResult] = useState<TimeSeries | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (event?: FormEvent) => {
    event?.preventDefault();
    setError(null);
    try {
      const body = await api<MplSeries[]>('POST', '/v1/query/_mpl?format=metrics-v1', {
        mpl,
        ...rangeToApi({ kind: 'quick', span }),
      });
      setResult(mplToTimeSeries(body));
    } catch (err) {
      setResult(null);
      setError((err as Error).message);
    }
  };

  return (
    <section className="page">
      <p className="breadcrumb">
        <Link href="/query">Back to APL</Link>
      </p>
      <h1>MPL explorer</h1>
      <form className="card" onSubmit={run}>
        <div className="form-row">
          <label htmlFor="mpl-dataset">Metrics dataset</label>
          <select id="mpl-dataset" value={dataset} onChange={(e) => setDataset(e.target.value)}>
            <option value="">Choose…</option>
            {metricsSets.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
          <label htmlFor="mpl-metric">Metric</label>
          <select
            id="mpl-metric"
            value=""
            onChange={(e) =>
              e.target.value && setMpl(`${dataset}:${e.target.value}\n| align to 5m using avg`)
            }
          >
            <option value="">Insert a metric…</option>
            {(Array.isArray(metrics.data) ? metrics.data : []).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          <label htmlFor="mpl-range">Window</label>
          <select id="mpl-range" value={span} onChange={(e) => setSpan(e.target.value)}>
            {QUICK_RANGES.map((r) => (
              <option key={r.span} value={r.span}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <label htmlFor="mpl-text">MPL</label>
        <textarea
          id="mpl-text"
          className="code"
          rows={4}
          value={mpl}
          onChange={(e) => setMpl(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void run(e);
          }}
          placeholder="metrics:http_requests | where service == 'api' | align to 1m using rate | group by status using sum"
        />
        <button type="submit" className="primary">
          Run MPL
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {result && (
        <div className="card">
          <Suspense fallback={<p className="muted">Loading chart…</p>}>
            <TimeChart data={result} label="Metrics chart" />
          </Suspense>
          {result.series.length === 0 && <p className="muted">No series in this window.</p>}
        </div>
      )}
    </section>
  );
}
