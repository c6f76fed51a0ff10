import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { useApi } from '../hooks';
import { Link, navigate } from '../router';

interface Monitor {
  id: string;
  name: string;
  type: string;
  aplQuery?: string;
  mplQuery?: string;
  operator?: string;
  threshold?: number;
  intervalMinutes?: number;
  rangeMinutes?: number;
  disabled?: boolean;
  description?: string;
}

interface HistoryEntry {
  [key: string]: unknown;
}

const OPERATORS = ['Above', 'AboveOrEqual', 'Below', 'BelowOrEqual'] as const;

/** Monitors: the list, one monitor's configuration and run history, and a threshold monitor form. */
export default function MonitorsPage({ monitorId }: { monitorId: string | null }) {
  if (monitorId) return <MonitorDetail id={monitorId} />;
  return <MonitorList />;
}

function MonitorList() {
  const [version, setVersion] = useState(0);
  const list = useApi<Monitor[]>('/v2/monitors', version);
  const [creating, setCreating] = useState(false);
  return (
    <section className="page">
      <div className="page-head">
        <h1>Monitors</h1>
        {!creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New monitor
          </button>
        )}
      </div>
      {creating && (
        <MonitorForm
          onDone={() => {
            setCreating(false);
            setVersion((v) => v + 1);
          }}
        />
      )}
      {list.error && (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      )}
      <table className="list">
        <caption className="visually-hidden">Monitors</caption>
        <thead>
          <tr>
            <th scope="col">Monitor</th>
            <th scope="col">Type</th>
            <th scope="col">Condition</th>
            <th scope="col">Every</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {(list.data ?? []).map((m) => (
            <tr key={m.id}>
              <td>
                <Link href={`/monitors/${encodeURIComponent(m.id)}`}>{m.name}</Link>
              </td>
              <td>{m.type}</td>
              <td>{m.type === 'Threshold' ? `${m.operator} ${m.threshold}` : ''}</td>
              <td>{m.intervalMinutes ? `${m.intervalMinutes} min` : ''}</td>
              <td>{m.disabled ? 'disabled' : 'enabled'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.length === 0 && <p className="muted">No monitors yet.</p>}
    </section>
  );
}

function MonitorForm({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const [apl, setApl] = useState('');
  const [operator, setOperator] = useState<(typeof OPERATORS)[number]>('Above');
  const [threshold, setThreshold] = useState('0');
  const [interval, setEvery] = useState('5');
  const [range, setRange] = useState('5');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('POST', '/v2/monitors', {
        name: name.trim(),
        type: 'Threshold',
        aplQuery: apl,
        operator,
        threshold: Number(threshold),
        intervalMinutes: Number(interval),
        rangeMinutes: Number(range),
        notifierIds: [],
      });
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby="new-monitor-title">
      <h2 id="new-monitor-title">New threshold monitor</h2>
      <div className="form-grid">
        <label htmlFor="monitor-name">Monitor name</label>
        <input id="monitor-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="monitor-apl">APL</label>
        <textarea
          id="monitor-apl"
          className="code"
          rows={3}
          value={apl}
          onChange={(e) => setApl(e.target.value)}
          required
          placeholder="['logs'] | where status >= 500 | summarize count() by bin_auto(_time)"
        />
        <label htmlFor="monitor-operator">Operator</label>
        <select
          id="monitor-operator"
          value={operator}
          onChange={(e) => setOperator(e.target.value as typeof operator)}
        >
          {OPERATORS.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
        <label htmlFor="monitor-threshold">Threshold</label>
        <input
          id="monitor-threshold"
          type="number"
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
        />
        <label htmlFor="monitor-interval">Every (minutes)</label>
        <input
          id="monitor-interval"
          type="number"
          min={1}
          value={interval}
          onChange={(e) => setEvery(e.target.value)}
        />
        <label htmlFor="monitor-range">Over the last (minutes)</label>
        <input
          id="monitor-range"
          type="number"
          min={1}
          value={range}
          onChange={(e) => setRange(e.target.value)}
        />
      </div>
      <div className="row">
        <button type="submit" className="primary">
          Create monitor
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}

function MonitorDetail({ id }: { id: string }) {
  const monitor = useApi<Monitor>(`/v2/monitors/${encodeURIComponent(id)}`);
  const [days, setDays] = useState(1);
  // The window is fixed when the page opens (or the choice changes), so the request is stable.
  const [now] = useState(() => Date.now());
  const from = new Date(now - days * 86_400_000).toISOString();
  const to = new Date(now + 60_000).toISOString();
  const history = useApi<HistoryEntry[] | { data?: HistoryEntry[] }>(
    `/v2/monitors/${encodeURIComponent(id)}/history?startTime=${from}&endTime=${to}`,
  );
  const entries = Array.isArray(history.data) ? history.data : (history.data?.data ?? []);
  const columns = [...new Set(entries.slice(0, 50).flatMap((e) => Object.keys(e)))];
  const remove = async () => {
    if (!window.confirm('Delete this monitor?')) return;
    await api('DELETE', `/v2/monitors/${encodeURIComponent(id)}`);
    navigate('/monitors');
  };
  const m = monitor.data;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link href="/monitors">All monitors</Link>
      </p>
      {monitor.error && (
        <p role="alert" className="error">
          {monitor.error.message}
        </p>
      )}
      {m && (
        <>
          <div className="page-head">
            <h1>{m.name}</h1>
            <button type="button" className="danger" onClick={() => void remove()}>
              Delete monitor
            </button>
          </div>
          <dl className="facts">
            <dt>Type</dt>
            <dd>{m.type}</dd>
            {m.aplQuery && (
              <>
                <dt>APL</dt>
                <dd>
                  <code>{m.aplQuery}</code>
                </dd>
              </>
            )}
            {m.mplQuery && (
              <>
                <dt>MPL</dt>
                <dd>
                  <code>{m.mplQuery}</code>
                </dd>
              </>
            )}
            {m.operator && (
              <>
                <dt>Condition</dt>
                <dd>
                  {m.operator} {m.threshold}
                </dd>
              </>
            )}
            <dt>Schedule</dt>
            <dd>
              every {m.intervalMinutes} min over the last {m.rangeMinutes} min
            </dd>
          </dl>
        </>
      )}
      <div className="row">
        <h2>History</h2>
        <select aria-label="History window" value={days} onChange={(e) => setDays(Number(e.target.value))}>
          <option value={1}>Last 1 day</option>
          <option value={7}>Last 7 days</option>
          <option value={30}>Last 30 days</option>
        </select>
      </div>
      {history.error && <p className="error">{history.error.message}</p>}
      <table className="list">
        <caption className="visually-hidden">Run history</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.slice(0, 500).map((e, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>{typeof e[c] === 'object' ? JSON.stringify(e[c]) : String(e[c] ?? '')}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {history.data && entries.length === 0 && <p className="muted">No runs yet.</p>}
    </section>
  );
}
