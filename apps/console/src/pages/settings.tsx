import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { useApi, type DatasetInfo } from '../hooks';
import { Link } from '../router';

const TABS = [
  { id: 'tokens', label: 'API tokens' },
  { id: 'roles', label: 'Roles' },
  { id: 'groups', label: 'Groups' },
] as const;

/** Settings: API tokens (value shown once), roles and groups. */
export default function SettingsPage({ tab }: { tab: string }) {
  return (
    <section className="page">
      <h1>Settings</h1>
      <nav aria-label="Settings sections" className="tabs">
        {TABS.map((t) => (
          <Link key={t.id} href={`/settings/${t.id}`} aria-current={tab === t.id ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'roles' ? <Roles /> : tab === 'groups' ? <Groups /> : <Tokens />}
    </section>
  );
}

interface Token {
  id: string;
  name: string;
  description?: string;
  expiresAt?: string | null;
  datasetCapabilities?: Record<string, Record<string, string[]>>;
  orgCapabilities?: Record<string, string[]>;
}

function Tokens() {
  const [version, setVersion] = useState(0);
  const tokens = useApi<Token[]>('/v2/tokens', version);
  const datasets = useApi<DatasetInfo[]>('/v2/datasets');
  const [name, setName] = useState('');
  const [dataset, setDataset] = useState('');
  const [canQuery, setCanQuery] = useState(false);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const target = dataset || '*';
    const capabilities: Record<string, string[]> = { ingest: ['create'] };
    if (canQuery) capabilities.query = ['read'];
    try {
      const res = await api<{ token: string; name: string }>('POST', '/v2/tokens', {
        name: name.trim(),
        datasetCapabilities: { [target]: capabilities },
      });
      setCreated({ name: res.name ?? name, token: res.token });
      setName('');
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (id: string) => {
    setError(null);
    try {
      await api('DELETE', `/v2/tokens/${encodeURIComponent(id)}`);
      setVersion((v) => v + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <div>
      {created && (
        <div className="card created-token" role="status">
          <p>
            Token <strong>{created.name}</strong> created. Copy it now: it is not shown again.
          </p>
          <code className="secret-value">{created.token}</code>
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {(tokens.error || error) && (
        <p role="alert" className="error">
          {tokens.error?.message ?? error}
        </p>
      )}
      <table className="list">
        <caption className="visually-hidden">API tokens</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Datasets</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(tokens.data ?? []).map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                {Object.entries(t.datasetCapabilities ?? {})
                  .map(([ds, caps]) => `${ds}: ${Object.keys(caps).join(', ')}`)
                  .join('; ')}
              </td>
              <td>{t.expiresAt ? t.expiresAt.slice(0, 10) : 'never'}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  onClick={() => void remove(t.id)}
                  aria-label={`Delete token ${t.name}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="card form-row" onSubmit={create} aria-labelledby="new-token-title">
        <h2 id="new-token-title">New ingest token</h2>
        <label htmlFor="token-name">Token name</label>
        <input id="token-name" value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor="token-dataset">Dataset</label>
        <select id="token-dataset" value={dataset} onChange={(e) => setDataset(e.target.value)}>
          <option value="">All datasets</option>
          {(datasets.data ?? []).map((d) => (
            <option key={d.name} value={d.name}>
              {d.name}
            </option>
          ))}
        </select>
        <label className="inline">
          <input type="checkbox" checked={canQuery} onChange={(e) => setCanQuery(e.target.checked)} /> Can
          also read
        </label>
        <button type="submit" className="primary">
          Create token
        </button>
      </form>
    </div>
  );
}

interface Role {
  id: string;
  name: string;
  description?: string;
  members?: string[];
  orgCapabilities?: Record<string, string[]>;
}

interface Group {
  id: string;
  name: string;
  description?: string;
  members?: string[];
  roles?: string[];
}

function Roles() {
  const [version, setVersion] = useState(0);
  const roles = useApi<Role[]>('/v2/rbac/roles', version);
  return (
    <NamedResource
      title="Roles"
      noun="role"
      path="/v2/rbac/roles"
      items={roles.data}
      error={roles.error}
      describe={(r: Role) =>
        Object.entries(r.orgCapabilities ?? {})
          .map(([k, v]) => `${k}: ${v.join('/')}`)
          .join('; ')
      }
      onChange={() => setVersion((v) => v + 1)}
    />
  );
}

function Groups() {
  const [version, setVersion] = useState(0);
  const groups = useApi<Group[]>('/v2/rbac/groups', version);
  const roles = useApi<Role[]>('/v2/rbac/roles');
  const roleName = (id: string) => roles.data?.find((r) => r.id === id)?.name ?? id;
  return (
    <NamedResource
      title="Groups"
      noun="group"
      path="/v2/rbac/groups"
      items={groups.data}
      error={groups.error}
      describe={(g: Group) =>
        `${g.members?.length ?? 0} members · roles: ${(g.roles ?? []).map(roleName).join(', ') || 'none'}`
      }
      onChange={() => setVersion((v) => v + 1)}
    />
  );
}

function NamedResource<T extends { id: string; name: string; description?: string }>(props: {
  title: string;
  noun: string;
  path: string;
  items: T[] | null;
  error: Error | null;
  describe(item: T): string;
  onChange(): void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('POST', props.path, { name: name.trim(), description: description.trim() || undefined });
      setName('');
      setDescription('');
      props.onChange();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (id: string) => {
    try {
      await api('DELETE', `${props.path}/${encodeURIComponent(id)}`);
      props.onChange();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div>
      {(props.error || error) && (
        <p role="alert" className="error">
          {props.error?.message ?? error}
        </p>
      )}
      <table className="list">
        <caption className="visually-hidden">{props.title}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Details</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(props.items ?? []).map((item) => (
            <tr key={item.id}>
              <td>{item.name}</td>
              <td>{item.description}</td>
              <td className="muted">{props.describe(item)}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  onClick={() => void remove(item.id)}
                  aria-label={`Delete ${props.noun} ${item.name}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="card form-row" onSubmit={create}>
        <label htmlFor={`${props.noun}-name`}>New {props.noun} name</label>
        <input id={`${props.noun}-name`} value={name} onChange={(e) => setName(e.target.value)} required />
        <label htmlFor={`${props.noun}-description`}>Description</label>
        <input
          id={`${props.noun}-description`}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <button type="submit">Create {props.noun}</button>
      </form>
    </div>
  );
}
