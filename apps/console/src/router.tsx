import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/**
 * A tiny history router: the console has a dozen routes and needs no more than the path, the search
 * string, and links that do not reload the page.
 */
const NAVIGATE = 'quarry:navigate';

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE));
}

export interface Location {
  path: string;
  search: string;
}

export function useLocation(): Location {
  const read = (): Location => ({ path: window.location.pathname, search: window.location.search });
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const update = () => setLocation(read());
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATE, update);
    };
  }, []);
  return location;
}

/** Matches `pattern` (`/datasets/:name`) against a path; the parameters decoded, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const m = new RegExp(`^${source}/?$`).exec(path);
  if (!m) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
}

export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { href, onClick, ...rest } = props;
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
