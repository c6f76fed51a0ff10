import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { newDashboard, newUid, type DashboardResource } from '../dashboard-model';
import { useApi } from '../hooks';
import { Link, navigate } from '../router';

/** Dashboards: the list (each a link named by its name) and "New dashboard". */
export default function DashboardsPage() {
  const list = useApi<DashboardResource[]>('/v2/dashboards?limit=1000');
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const trimmed = name.trim();
    if (!trimmed) return setError('Give the dashboard a name.');
    try {
      const uid = newUid(trimmed);
      await api('POST', '/v2/dashboards', { uid, dashboard: newDashboard(trimmed) });
      navigate(`/dashboards/${encodeURIComponent(uid)}?edit=1`);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const dashboards = [...(list.data ?? [])].sort((a, b) => a.dashboard.name.localeCompare(b.dashboard.name));
  return (
    <section className="page">
      <div className="page-head">
        <h1>Dashboards</h1>
        {!creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New dashboard
          </button>
        )}
      </div>
      {creating && (
        <form className="card form-row" onSubmit={create} aria-labelledby="new-dashboard-title">
          <h2 id="new-dashboard-title">New dashboard</h2>
          <label htmlFor="dashboard-name">Name</label>
          <input id="dashboard-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <button type="submit" className="primary">
            Create
          </button>
          <button type="button" onClick={() => setCreating(false)}>
            Cancel
          </button>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
        </form>
      )}
      {list.error && (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      )}
      <ul className="cards">
        {dashboards.map((d) => (
          <li key={d.uid} className="card">
            <Link href={`/dashboards/${encodeURIComponent(d.uid)}`}>{d.dashboard.name}</Link>
            <p className="muted">
              {d.dashboard.charts.length} element{d.dashboard.charts.length === 1 ? '' : 's'}
              {d.dashboard.description ? ` · ${d.dashboard.description}` : ''}
            </p>
          </li>
        ))}
      </ul>
      {list.data?.length === 0 && <p className="muted">No dashboards yet.</p>}
    </section>
  );
}
