import { useState, type FormEvent } from 'react';
import { api } from '../api';
import {
  describeCondition,
  describeNotifier,
  emptyMonitorForm,
  MONITOR_TYPES,
  monitorBody,
  monitorFormOf,
  NOTIFIER_KINDS,
  notifierBody,
  OPERATORS,
  type Monitor,
  type MonitorForm as MonitorFormState,
  type Notifier,
  type NotifierKind,
} from '../alerting-model';
import { useApi } from '../hooks';
import { Link, navigate } from '../router';

interface HistoryEntry {
  [key: string]: unknown;
}

/** Monitors: the list, one monitor's configuration and run history, the monitor form (all three types) and notifiers. */
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
              <td>{describeCondition(m)}</td>
              <td>{m.intervalMinutes ? `${m.intervalMinutes} min` : ''}</td>
              <td>{m.disabled ? 'disabled' : 'enabled'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.length === 0 && <p className="muted">No monitors yet.</p>}
      <Notifiers />
    </section>
  );
}

/** Creates a monitor, or replaces one (`existing`) with PUT. */
function MonitorForm({ existing, onDone }: { existing?: Monitor; onDone(): void }) {
  const [form, setForm] = useState<MonitorFormState>(() =>
    existing ? monitorFormOf(existing) : emptyMonitorForm(),
  );
  const notifiers = useApi<Notifier[]>('/v2/notifiers');
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof MonitorFormState>(key: K, value: MonitorFormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const body = monitorBody(form);
      if (existing) await api('PUT', `/v2/monitors/${encodeURIComponent(existing.id)}`, body);
      else await api('POST', '/v2/monitors', body);
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby="monitor-form-title">
      <h2 id="monitor-form-title">{existing ? `Edit ${existing.name}` : 'New monitor'}</h2>
      <div className="form-grid">
        <label htmlFor="monitor-name">Monitor name</label>
        <input id="monitor-name" value={form.name} onChange={(e) => set('name', e.target.value)} required />
        <label htmlFor="monitor-type">Monitor type</label>
        <select
          id="monitor-type"
          value={form.type}
          onChange={(e) => set('type', e.target.value as MonitorFormState['type'])}
        >
          {MONITOR_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
        <label htmlFor="monitor-apl">APL</label>
        <textarea
          id="monitor-apl"
          className="code"
          rows={3}
          value={form.aplQuery}
          onChange={(e) => set('aplQuery', e.target.value)}
          required
          placeholder={
            form.type === 'MatchEvent'
              ? "['logs'] | where status >= 500"
              : "['logs'] | where status >= 500 | summarize count() by bin_auto(_time)"
          }
        />
        <label htmlFor="monitor-description">Monitor description</label>
        <input
          id="monitor-description"
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
        />
        {form.type !== 'MatchEvent' && (
          <>
            <label htmlFor="monitor-operator">Operator</label>
            <select
              id="monitor-operator"
              value={form.operator}
              onChange={(e) => set('operator', e.target.value)}
            >
              {OPERATORS.filter((o) => form.type === 'AnomalyDetection' || o !== 'AboveOrBelow').map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </>
        )}
        {form.type === 'Threshold' && (
          <>
            <label htmlFor="monitor-threshold">Threshold</label>
            <input
              id="monitor-threshold"
              type="number"
              step="any"
              value={form.threshold}
              onChange={(e) => set('threshold', e.target.value)}
            />
          </>
        )}
        {form.type === 'AnomalyDetection' && (
          <>
            <label htmlFor="monitor-compare">Compare with days ago</label>
            <input
              id="monitor-compare"
              type="number"
              min={0}
              max={7}
              value={form.compareDays}
              onChange={(e) => set('compareDays', e.target.value)}
            />
            <label htmlFor="monitor-tolerance">Tolerance (%)</label>
            <input
              id="monitor-tolerance"
              type="number"
              min={0}
              max={100}
              step="any"
              value={form.tolerance}
              onChange={(e) => set('tolerance', e.target.value)}
            />
          </>
        )}
        <label htmlFor="monitor-interval">Every (minutes)</label>
        <input
          id="monitor-interval"
          type="number"
          min={1}
          value={form.intervalMinutes}
          onChange={(e) => set('intervalMinutes', e.target.value)}
        />
        <label htmlFor="monitor-range">Over the last (minutes)</label>
        <input
          id="monitor-range"
          type="number"
          min={1}
          value={form.rangeMinutes}
          onChange={(e) => set('rangeMinutes', e.target.value)}
        />
      </div>
      <fieldset className="capabilities">
        <legend>Notify</legend>
        {(notifiers.data ?? []).map((n) => (
          <label key={n.id} className="inline">
            <input
              type="checkbox"
              aria-label={`Notify ${n.name}`}
              checked={form.notifierIds.includes(n.id)}
              onChange={(e) =>
                set(
                  'notifierIds',
                  e.target.checked
                    ? [...form.notifierIds.filter((x) => x !== n.id), n.id]
                    : form.notifierIds.filter((x) => x !== n.id),
                )
              }
            />{' '}
            {n.name}
          </label>
        ))}
        {notifiers.data?.length === 0 && <p className="muted">No notifiers yet: add one below the list.</p>}
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={form.disabled} onChange={(e) => set('disabled', e.target.checked)} />{' '}
        Disabled
      </label>
      <div className="row">
        <button type="submit" className="primary">
          {existing ? 'Save monitor' : 'Create monitor'}
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

/** Notifiers: the list, a form for the single-setting channels, and delete. */
function Notifiers() {
  const [version, setVersion] = useState(0);
  const list = useApi<Notifier[]>('/v2/notifiers', version);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<NotifierKind>('webhook');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | null>(null);
  const spec = NOTIFIER_KINDS.find((k) => k.kind === kind)!;
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('POST', '/v2/notifiers', notifierBody(name, kind, target));
      setName('');
      setTarget('');
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (id: string) => {
    setError(null);
    try {
      await api('DELETE', `/v2/notifiers/${encodeURIComponent(id)}`);
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section aria-labelledby="notifiers-title">
      <h2 id="notifiers-title">Notifiers</h2>
      {(list.error || error) && (
        <p role="alert" className="error">
          {list.error?.message ?? error}
        </p>
      )}
      <table className="list">
        <caption className="visually-hidden">Notifiers</caption>
        <thead>
          <tr>
            <th scope="col">Notifier</th>
            <th scope="col">Channel</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(list.data ?? []).map((n) => (
            <tr key={n.id}>
              <td>{n.name}</td>
              <td>{describeNotifier(n)}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  onClick={() => void remove(n.id)}
                  aria-label={`Delete notifier ${n.name}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="card form-row" onSubmit={create} aria-label="New notifier">
        <label htmlFor="notifier-name">Notifier name</label>
        <input id="notifier-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="notifier-kind">Channel</label>
        <select id="notifier-kind" value={kind} onChange={(e) => setKind(e.target.value as NotifierKind)}>
          {NOTIFIER_KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
        <label htmlFor="notifier-target">{spec.target}</label>
        <input
          id="notifier-target"
          type={kind === 'pagerduty' || kind === 'opsgenie' ? 'password' : 'text'}
          autoComplete="off"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          required
        />
        <button type="submit">Create notifier</button>
      </form>
    </section>
  );
}

function MonitorDetail({ id }: { id: string }) {
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState(false);
  const monitor = useApi<Monitor>(`/v2/monitors/${encodeURIComponent(id)}`, version);
  const notifiers = useApi<Notifier[]>('/v2/notifiers');
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
            <div className="row">
              {!editing && (
                <button type="button" onClick={() => setEditing(true)}>
                  Edit monitor
                </button>
              )}
              <button type="button" className="danger" onClick={() => void remove()}>
                Delete monitor
              </button>
            </div>
          </div>
          {editing && (
            <MonitorForm
              existing={m}
              onDone={() => {
                setEditing(false);
                setVersion((v) => v + 1);
              }}
            />
          )}
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
            <dt>Condition</dt>
            <dd>{describeCondition(m)}</dd>
            <dt>Notifies</dt>
            <dd>
              {(m.notifierIds ?? [])
                .map((nid) => notifiers.data?.find((n) => n.id === nid)?.name ?? nid)
                .join(', ') || 'nobody'}
            </dd>
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
