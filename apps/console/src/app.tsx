import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { loadSession, onSessionChange, saveSession, type Session } from './api';
import { Link, matchPath, navigate, useLocation } from './router';
import { LoginPage } from './pages/login';

// Each page is its own chunk: the editor and the charts load only with the pages that use them.
const QueryPage = lazy(() => import('./pages/query'));
const MplPage = lazy(() => import('./pages/mpl'));
const StreamPage = lazy(() => import('./pages/stream'));
const DatasetsPage = lazy(() => import('./pages/datasets'));
const DatasetPage = lazy(() => import('./pages/dataset'));
const DashboardsPage = lazy(() => import('./pages/dashboards'));
const DashboardPage = lazy(() => import('./pages/dashboard'));
const MonitorsPage = lazy(() => import('./pages/monitors'));
const SettingsPage = lazy(() => import('./pages/settings'));

const NAV: { href: string; label: string; icon: string }[] = [
  { href: '/query', label: 'Query', icon: '⌕' },
  { href: '/stream', label: 'Stream', icon: '≋' },
  { href: '/datasets', label: 'Datasets', icon: '▤' },
  { href: '/dashboards', label: 'Dashboards', icon: '▦' },
  { href: '/monitors', label: 'Monitors', icon: '◔' },
  { href: '/settings', label: 'Settings', icon: '⚙' },
];

function useSession(): Session | null {
  const [session, setSession] = useState(loadSession);
  useEffect(() => onSessionChange(() => setSession(loadSession())), []);
  return session;
}

export function App() {
  const session = useSession();
  const { path, search } = useLocation();

  useEffect(() => {
    // Not signed in: sign-in first, then back to the page the link pointed at.
    if (!session && path !== '/login') {
      navigate(`/login?next=${encodeURIComponent(path + search)}`, { replace: true });
    } else if (session && path === '/') {
      navigate('/query', { replace: true });
    }
  }, [session, path, search]);

  if (path === '/login' || !session) {
    return <LoginPage next={new URLSearchParams(search).get('next')} signedIn={session !== null} />;
  }
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand" aria-hidden="true">
          ◆
        </span>
        <span className="brand-name">Quarry</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => {
              const current = path === item.href || path.startsWith(`${item.href}/`);
              return (
                <li key={item.href}>
                  <Link href={item.href} aria-current={current ? 'page' : undefined}>
                    <span className="nav-icon" aria-hidden="true">
                      {item.icon}
                    </span>
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <button type="button" className="link-button signout" onClick={() => saveSession(null)}>
          Sign out
        </button>
      </header>
      <main>
        <Suspense fallback={<p className="muted">Loading…</p>}>{route(path)}</Suspense>
      </main>
    </div>
  );
}

function route(path: string): ReactNode {
  let params: Record<string, string> | null;
  if (path === '/query') return <QueryPage />;
  if (path === '/query/mpl') return <MplPage />;
  if (path === '/stream') return <StreamPage dataset={null} />;
  if ((params = matchPath('/stream/:dataset', path))) return <StreamPage dataset={params.dataset!} />;
  if (path === '/datasets') return <DatasetsPage />;
  if ((params = matchPath('/datasets/:dataset', path))) return <DatasetPage dataset={params.dataset!} />;
  if (path === '/dashboards') return <DashboardsPage />;
  if ((params = matchPath('/dashboards/:uid', path))) return <DashboardPage uid={params.uid!} />;
  if (path === '/monitors') return <MonitorsPage monitorId={null} />;
  if ((params = matchPath('/monitors/:id', path))) return <MonitorsPage monitorId={params.id!} />;
  if (path === '/settings' || path.startsWith('/settings/'))
    return <SettingsPage tab={path.split('/')[2] ?? 'tokens'} />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        No console page at <code>{path}</code>. <Link href="/query">Open Query</Link>
      </p>
    </section>
  );
}
