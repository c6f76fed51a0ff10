import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { useApi, type DatasetInfo } from '../hooks';
import { Link } from '../router';

/** Datasets: each a link named by its name; create one; views (saved APL read like a dataset). */
export default function DatasetsPage() {
  const [version, setVersion] = useState(0);
  const datasets = useApi<(DatasetInfo & { id: string; created?: string })[]>('/v2/datasets', version);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('POST', '/v2/datasets', { name: name.trim(), description: description.trim() || undefined });
      setName('');
      setDescription('');
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section className="page">
      <h1>Datasets</h1>
      {datasets.error && (
        <p role="alert" className="error">
          {datasets.error.message}
        </p>
      )}
      <table className="list">
        <caption className="visually-hidden">Datasets</caption>
        <thead>
          <tr>
            <th scope="col">Dataset</th>
            <th scope="col">Description</th>
            <th scope="col">Kind</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {(datasets.data ?? []).map((d) => (
            <tr key={d.name}>
              <td>
                <Link href={`/datasets/${encodeURIComponent(d.name)}`}>{d.name}</Link>
              </td>
              <td>{d.description}</td>
              <td className="muted">{d.kind}</td>
              <td className="muted">{d.created?.slice(0, 19).replace('T', ' ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {datasets.data?.length === 0 && (
        <p className="muted">No datasets yet: create one below, then send events to it.</p>
      )}
      <form className="card form-row" onSubmit={create} aria-labelledby="new-dataset">
        <h2 id="new-dataset">New dataset</h2>
        <label htmlFor="dataset-name">Dataset name</label>
        <input id="dataset-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="dataset-description">Description</label>
        <input
          id="dataset-description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <button type="submit">Create dataset</button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
      <Views />
    </section>
  );
}

interface View {
  id: string;
  name: string;
  aplQuery: string;
  description?: string;
}

/** Views (`/v2/views`): a named APL filter or transform, queried like a dataset. */
function Views() {
  const [version, setVersion] = useState(0);
  const views = useApi<View[]>('/v2/views', version);
  const [name, setName] = useState('');
  const [apl, setApl] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('POST', '/v2/views', { name: name.trim(), aplQuery: apl });
      setName('');
      setApl('');
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (id: string) => {
    try {
      await api('DELETE', `/v2/views/${encodeURIComponent(id)}`);
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section className="card" aria-labelledby="views-title">
      <h2 id="views-title">Views</h2>
      {views.error && <p className="error">{views.error.message}</p>}
      <ul className="plain">
        {(views.data ?? []).map((v) => (
          <li key={v.id} className="row">
            <strong>{v.name}</strong> <code>{v.aplQuery}</code>
            <button type="button" onClick={() => void remove(v.id)} aria-label={`Delete view ${v.name}`}>
              Delete
            </button>
          </li>
        ))}
        {views.data?.length === 0 && <li className="muted">No views.</li>}
      </ul>
      <form onSubmit={create} className="form-row">
        <label htmlFor="view-name">View name</label>
        <input id="view-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="view-apl">View APL</label>
        <input
          id="view-apl"
          value={apl}
          onChange={(e) => setApl(e.target.value)}
          required
          placeholder="['logs'] | where level == 'error'"
        />
        <button type="submit">Create view</button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
