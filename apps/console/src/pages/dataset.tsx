import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { typeWord } from '../apl/completion';
import { useApi, type FieldInfo } from '../hooks';
import { Link, navigate } from '../router';
import { formatQueryState, DEFAULT_RANGE } from '../url-state';

/** One dataset: its fields with their types as words, links to query and stream it, its virtual fields. */
export default function DatasetPage({ dataset }: { dataset: string }) {
  const id = encodeURIComponent(dataset);
  const info = useApi<{ name: string; description?: string; created?: string }>(`/v2/datasets/${id}`);
  const fields = useApi<FieldInfo[]>(`/v2/datasets/${id}/fields`);
  const quoted = `['${dataset.replace(/'/g, "\\'")}']`;
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    if (!window.confirm(`Delete the dataset ${dataset} and all its events?`)) return;
    try {
      await api('DELETE', `/v2/datasets/${id}`);
      navigate('/datasets');
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section className="page">
      <p className="breadcrumb">
        <Link href="/datasets">All datasets</Link>
      </p>
      <div className="page-head">
        <h1>{dataset}</h1>
        <Link href={`/query${formatQueryState({ apl: `${quoted}\n| take 100`, range: DEFAULT_RANGE })}`}>
          Open in Query
        </Link>
        <Link href={`/stream/${id}`}>Open in Stream</Link>
        <button type="button" className="danger" onClick={() => void remove()}>
          Delete dataset
        </button>
      </div>
      {info.data?.description && <p>{info.data.description}</p>}
      {(info.error || fields.error || error) && (
        <p role="alert" className="error">
          {(info.error ?? fields.error)?.message ?? error}
        </p>
      )}
      <h2>Fields</h2>
      <table className="list fields">
        <caption className="visually-hidden">Fields of {dataset}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Unit</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {(fields.data ?? []).map((f) => (
            <tr key={f.name}>
              <td>
                <code>{f.name}</code>
              </td>
              <td className="type">{typeWord(f.type)}</td>
              <td>{f.unit}</td>
              <td>{f.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {fields.data?.length === 0 && <p className="muted">No fields yet: the dataset has no events.</p>}
      <VirtualFields dataset={dataset} />
    </section>
  );
}

interface VirtualField {
  id: string;
  dataset: string;
  name: string;
  expression: string;
  type?: string;
  unit?: string;
  description?: string;
}

/** Virtual fields (`/v2/vfields`): name + APL expression, computed at query time. */
function VirtualFields({ dataset }: { dataset: string }) {
  const [version, setVersion] = useState(0);
  const list = useApi<VirtualField[]>(`/v2/vfields?dataset=${encodeURIComponent(dataset)}`, version);
  const [name, setName] = useState('');
  const [expression, setExpression] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('POST', '/v2/vfields', { dataset, name: name.trim(), expression });
      setName('');
      setExpression('');
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (id: string) => {
    try {
      await api('DELETE', `/v2/vfields/${encodeURIComponent(id)}`);
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section className="card" aria-labelledby="vfields-title">
      <h2 id="vfields-title">Virtual fields</h2>
      {list.error && <p className="error">{list.error.message}</p>}
      <ul className="plain">
        {(list.data ?? []).map((v) => (
          <li key={v.id} className="row">
            <code>{v.name}</code> = <code>{v.expression}</code>
            <button
              type="button"
              onClick={() => void remove(v.id)}
              aria-label={`Delete virtual field ${v.name}`}
            >
              Delete
            </button>
          </li>
        ))}
        {list.data?.length === 0 && <li className="muted">No virtual fields.</li>}
      </ul>
      <form onSubmit={create} className="form-row">
        <label htmlFor="vfield-name">Virtual field name</label>
        <input id="vfield-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="vfield-expression">Expression</label>
        <input
          id="vfield-expression"
          value={expression}
          onChange={(e) => setExpression(e.target.value)}
          required
          placeholder="status >= 500"
        />
        <button type="submit">Add virtual field</button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
