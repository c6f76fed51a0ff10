import { useState, type FormEvent } from 'react';
import { api, ApiError, saveSession, type Session } from '../api';
import { navigate } from '../router';

/**
 * Sign-in with a token: an API token (`xaat-…`), or a personal access token (`xapt-…`) with the
 * organization's id. The token is checked against the API before it is kept (in sessionStorage).
 */
export function LoginPage({ next, signedIn }: { next: string | null; signedIn: boolean }) {
  const [token, setToken] = useState('');
  const [orgId, setOrgId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const personal = token.trim().startsWith('xapt-');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const session: Session = { token: token.trim(), orgId: orgId.trim() || undefined };
    if (!session.token) return setError('Enter a token.');
    if (session.token.startsWith('xapt-') && !session.orgId)
      return setError('A personal access token (xapt-…) needs the organization id: fill in Org ID.');
    setBusy(true);
    try {
      // A PAT is a user's: /v2/user answers for it. An API token has no user; listing datasets is the cheap check.
      await api('GET', session.token.startsWith('xapt-') ? '/v2/user' : '/v2/datasets', undefined, {
        session,
      });
      saveSession(session);
      const target =
        next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login')
          ? next
          : '/query';
      navigate(target, { replace: true });
    } catch (err) {
      // 403: the token is real but may not list datasets; it can still query what it may.
      if (err instanceof ApiError && err.status === 403) {
        saveSession(session);
        navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/query', { replace: true });
        return;
      }
      setError(
        err instanceof ApiError && err.status === 401
          ? 'That token was not accepted (401). Check it, and for a personal access token the Org ID.'
          : `Sign-in failed: ${(err as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <form className="card login-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Sign in to Quarry</h1>
        {signedIn && <p className="muted">You are signed in; signing in again replaces the session.</p>}
        <p className="muted">
          Paste an API token (<code>xaat-…</code>) or a personal access token (<code>xapt-…</code>) with your
          organization id. The server prints both at its first start.
        </p>
        <label htmlFor="login-token">Token</label>
        <input
          id="login-token"
          type="text"
          className="secret"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          autoFocus
        />
        <label htmlFor="login-org">Org ID</label>
        <input
          id="login-org"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={orgId}
          onChange={(e) => setOrgId(e.target.value)}
          aria-describedby="login-org-help"
        />
        <small id="login-org-help" className="muted">
          {personal ? 'Required for a personal access token.' : 'Only needed with a personal access token.'}
        </small>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
