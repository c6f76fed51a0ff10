import { useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api';
import {
  DATASET_CAPABILITIES,
  describeCapabilities,
  hasCapability,
  ORG_AREAS,
  toggleCapability,
  withDatasetCapabilities,
  type CapabilityMap,
} from '../capabilities';
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
  const [datasetCaps, setDatasetCaps] = useState<CapabilityMap>({ ingest: ['create'] });
  const [orgCaps, setOrgCaps] = useState<CapabilityMap>({});
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const target = dataset || '*';
    try {
      const res = await api<{ token: string; name: string }>('POST', '/v2/tokens', {
        name: name.trim(),
        datasetCapabilities: withDatasetCapabilities({}, target, datasetCaps),
        orgCapabilities: orgCaps,
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
                {Object.keys(t.orgCapabilities ?? {}).length > 0 && (
                  <span className="muted"> · org: {describeCapabilities(t.orgCapabilities)}</span>
                )}
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
        <h2 id="new-token-title">New API token</h2>
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
        <CapabilityGrid
          legend="Dataset capabilities"
          schema={DATASET_CAPABILITIES}
          value={datasetCaps}
          onChange={setDatasetCaps}
        />
        <details>
          <summary>Organisation capabilities ({describeCapabilities(orgCaps) || 'none'})</summary>
          <CapabilityGrid
            legend="Organisation capabilities"
            schema={ORG_AREAS}
            value={orgCaps}
            onChange={setOrgCaps}
          />
        </details>
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
  orgCapabilities?: CapabilityMap;
  datasetCapabilities?: Record<string, CapabilityMap>;
  viewCapabilities?: Record<string, unknown>;
}

interface User {
  id: string;
  name: string;
  email?: string;
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
        [
          describeCapabilities(r.orgCapabilities),
          ...Object.entries(r.datasetCapabilities ?? {}).map(
            ([ds, caps]) => `${ds} → ${describeCapabilities(caps)}`,
          ),
        ]
          .filter(Boolean)
          .join('; ')
      }
      onChange={() => setVersion((v) => v + 1)}
      renderEditor={(role, done) => <RoleEditor key={role.id} role={role} onDone={done} />}
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
      renderEditor={(group, done) => (
        <GroupEditor key={group.id} group={group} roles={roles.data ?? []} onDone={done} />
      )}
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
  renderEditor(item: T, done: () => void): ReactNode;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const editedItem = props.items?.find((i) => i.id === editing) ?? null;
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
                <div className="row">
                  <button
                    type="button"
                    onClick={() => setEditing(item.id)}
                    aria-label={`Edit ${props.noun} ${item.name}`}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void remove(item.id)}
                    aria-label={`Delete ${props.noun} ${item.name}`}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editedItem &&
        props.renderEditor(editedItem, () => {
          setEditing(null);
          props.onChange();
        })}
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

/** Checkboxes for every action of every area of a capability schema, named "area action". */
function CapabilityGrid(props: {
  legend: string;
  schema: Record<string, readonly string[]>;
  value: CapabilityMap;
  onChange(next: CapabilityMap): void;
}) {
  return (
    <fieldset className="capabilities">
      <legend>{props.legend}</legend>
      {Object.entries(props.schema).map(([area, actions]) => (
        <div key={area} className="capability-row">
          <span className="capability-area">{area}</span>
          {actions.map((action) => (
            <label key={action} className="inline">
              <input
                type="checkbox"
                aria-label={`${area} ${action}`}
                checked={hasCapability(props.value, area, action)}
                onChange={(e) =>
                  props.onChange(toggleCapability(props.value, area, action, e.target.checked, props.schema))
                }
              />{' '}
              {action}
            </label>
          ))}
        </div>
      ))}
    </fieldset>
  );
}

/** A role's capabilities: organisation areas, and dataset capabilities for all datasets or one. */
function RoleEditor({ role, onDone }: { role: Role; onDone(): void }) {
  const datasets = useApi<DatasetInfo[]>('/v2/datasets');
  const [orgCaps, setOrgCaps] = useState<CapabilityMap>(role.orgCapabilities ?? {});
  const [datasetCaps, setDatasetCaps] = useState<Record<string, CapabilityMap>>(
    role.datasetCapabilities ?? {},
  );
  const [scope, setScope] = useState('*');
  const [error, setError] = useState<string | null>(null);
  const scopes = [
    ...new Set(['*', ...Object.keys(datasetCaps), ...(datasets.data ?? []).map((d) => d.name)]),
  ];
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('PUT', `/v2/rbac/roles/${encodeURIComponent(role.id)}`, {
        name: role.name,
        description: role.description,
        orgCapabilities: orgCaps,
        datasetCapabilities: datasetCaps,
        viewCapabilities: role.viewCapabilities ?? {},
        members: role.members ?? [],
      });
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="card" onSubmit={save} aria-labelledby="role-editor-title">
      <h2 id="role-editor-title">Capabilities of {role.name}</h2>
      <CapabilityGrid
        legend="Organisation capabilities"
        schema={ORG_AREAS}
        value={orgCaps}
        onChange={setOrgCaps}
      />
      <div className="form-row">
        <label htmlFor="role-scope">Dataset capabilities for</label>
        <select id="role-scope" value={scope} onChange={(e) => setScope(e.target.value)}>
          {scopes.map((s) => (
            <option key={s} value={s}>
              {s === '*' ? 'All datasets' : s}
            </option>
          ))}
        </select>
      </div>
      <CapabilityGrid
        legend={`Dataset capabilities (${scope === '*' ? 'all datasets' : scope})`}
        schema={DATASET_CAPABILITIES}
        value={datasetCaps[scope] ?? {}}
        onChange={(caps) => setDatasetCaps((m) => withDatasetCapabilities(m, scope, caps))}
      />
      <div className="row">
        <button type="submit" className="primary">
          Save role
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

/** A group's members (the org's users) and roles. */
function GroupEditor({ group, roles, onDone }: { group: Group; roles: Role[]; onDone(): void }) {
  const users = useApi<User[]>('/v2/users');
  const [members, setMembers] = useState<string[]>(group.members ?? []);
  const [roleIds, setRoleIds] = useState<string[]>(group.roles ?? []);
  const [error, setError] = useState<string | null>(null);
  const toggle = (list: string[], id: string, on: boolean) =>
    on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await api('PUT', `/v2/rbac/groups/${encodeURIComponent(group.id)}`, {
        name: group.name,
        description: group.description,
        members,
        roles: roleIds,
      });
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="card" onSubmit={save} aria-labelledby="group-editor-title">
      <h2 id="group-editor-title">Members and roles of {group.name}</h2>
      {users.error && <p className="error">{users.error.message}</p>}
      <fieldset className="capabilities">
        <legend>Members</legend>
        {(users.data ?? []).map((u) => (
          <label key={u.id} className="inline">
            <input
              type="checkbox"
              aria-label={`Member ${u.name}`}
              checked={members.includes(u.id)}
              onChange={(e) => setMembers((m) => toggle(m, u.id, e.target.checked))}
            />{' '}
            {u.name} <span className="muted">{u.email}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="capabilities">
        <legend>Roles</legend>
        {roles.map((r) => (
          <label key={r.id} className="inline">
            <input
              type="checkbox"
              aria-label={`Role ${r.name}`}
              checked={roleIds.includes(r.id)}
              onChange={(e) => setRoleIds((ids) => toggle(ids, r.id, e.target.checked))}
            />{' '}
            {r.name}
          </label>
        ))}
        {roles.length === 0 && <p className="muted">No roles yet.</p>}
      </fieldset>
      <div className="row">
        <button type="submit" className="primary">
          Save group
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
