import type { StandaloneProcess } from '../support/standalone-process';

/**
 * `server.start()`, but patient: a first start on a fresh data directory (PGlite's initdb) can take more
 * than StandaloneProcess's 30 s on a loaded 2-core machine. The child keeps starting after that timeout,
 * so wait for it on the same port rather than failing (or starting a second one, which the lock refuses).
 */
export async function startPatiently(server: StandaloneProcess, extraMs = 90_000): Promise<void> {
  try {
    await server.start();
    return;
  } catch (err) {
    if (!/did not become ready/.test(String(err))) throw err;
  }
  await waitReady(server.url, extraMs);
}

/** Polls `/readyz` until it answers 200. */
export async function waitReady(url: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not become ready in ${ms} ms`);
}
