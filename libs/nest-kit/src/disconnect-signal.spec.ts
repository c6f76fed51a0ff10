import Fastify, { type FastifyInstance } from 'fastify';
import { disconnectSignal } from './disconnect-signal';

describe('disconnectSignal', () => {
  let app: FastifyInstance;
  let url: string;
  const seen: AbortSignal[] = [];

  beforeAll(async () => {
    app = Fastify({ forceCloseConnections: true });
    // Answers after `wait` ms, or as soon as its client goes away.
    app.get<{ Querystring: { wait: string } }>('/work', async (request, reply) => {
      const signal = disconnectSignal(reply);
      seen.push(signal);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Number(request.query.wait));
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { aborted: signal.aborted };
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('stays quiet for a request answered normally', async () => {
    const res = await fetch(`${url}/work?wait=10`);
    expect(await res.json()).toEqual({ aborted: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.at(-1)!.aborted).toBe(false);
  });

  it('aborts when the client disconnects before the answer', async () => {
    const client = new AbortController();
    const started = Date.now();
    const pending = fetch(`${url}/work?wait=10000`, { signal: client.signal }).catch((e: unknown) => e);
    while (seen.length < 2) await new Promise((r) => setTimeout(r, 5));
    client.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    const signal = seen[1];
    while (!signal.aborted && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 5));
    expect(signal.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
