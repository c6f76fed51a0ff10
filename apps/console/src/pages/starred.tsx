import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { useApi } from '../hooks';

interface Starred {
  id: string;
  name: string;
  kind: string;
  query: { apl: string };
}

/** Starred APL (`/v2/apl-starred-queries`): save the editor's text under a name, reopen it later. */
export function StarredQueries({ apl, onOpen }: { apl: string; onOpen(apl: string): void }) {
  const [version, setVersion] = useState(0);
  const [name, setName] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const list = useApi<Starred[]>('/v2/apl-starred-queries?who=all', version);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !apl.trim()) return;
    try {
      await api('POST', '/v2/apl-starred-queries', {
        kind: 'apl',
        name: name.trim(),
        who: '',
        query: { apl },
        metadata: {},
      });
      setMessage(`Starred as “${name.trim()}”.`);
      setName('');
      setVersion((v) => v + 1);
    } catch (err) {
      setMessage(`Could not star: ${(err as Error).message}`);
    }
  };

  return (
    <details className="starred">
      <summary>Starred</summary>
      <div className="popover card">
        <form onSubmit={save} className="row">
          <label htmlFor="star-name">Star as</label>
          <input id="star-name" value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit">Star</button>
        </form>
        {message && <p className="muted">{message}</p>}
        {list.error && <p className="error">{list.error.message}</p>}
        <ul className="plain">
          {(list.data ?? []).map((s) => (
            <li key={s.id}>
              <button type="button" className="link-button" onClick={() => onOpen(s.query?.apl ?? '')}>
                {s.name}
              </button>
            </li>
          ))}
          {list.data?.length === 0 && <li className="muted">Nothing starred yet.</li>}
        </ul>
      </div>
    </details>
  );
}
