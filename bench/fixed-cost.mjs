// The fixed cost of a query: sequential requests of trivial queries over HTTP against a tiny dataset.
//
//   node bench/fixed-cost.mjs [--requests 200] [--events 10] [--only 'take 1'] [--client http|fetch]
//   QUARRY_URL=... QUARRY_TOKEN=... node bench/fixed-cost.mjs   (use a running server)
//
// Starts apps/standalone/dist/main.js (see server.mjs), ingests a few events, then for each query sends
// `--requests` requests one after another over one keep-alive socket (`node:http`) and prints the p50,
// p90 and p99 latencies as the client sees them. Warm-up requests are sent first and not timed. `--client
// fetch` sends the queries with `fetch` instead (what bench/run.mjs used before: it costs the client more).
import * as http from 'node:http';
import { request, startServer } from './server.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const REQUESTS = Number(opt('requests', '200'));
const EVENTS = Number(opt('events', '10'));
const ONLY = opt('only', null);
const CLIENT = opt('client', 'http');
const DATASET = 'bench-fixed-cost';
const QUERIES = [
  ['take 1', `['${DATASET}'] | take 1`],
  ['count', `['${DATASET}'] | count`],
  ['summarize by', `['${DATASET}'] | summarize count() by status`],
  ['where take', `['${DATASET}'] | where status == 200 | take 5`],
];

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function main() {
  const server = await startServer('quarry-fixed-cost-');
  const headers = { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' };
  const post = async (url, payload) => {
    const body = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
    const res = await request(
      `${server.url}${url}`,
      { method: 'POST', agent, headers: { ...headers, 'Content-Length': body.length } },
      body,
    );
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
    return res.text;
  };
  try {
    await post('/v2/datasets', { name: DATASET });
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      _time: new Date(Date.UTC(2024, 4, 1, 0, i)).toISOString(),
      status: i % 3 === 0 ? 500 : 200,
      message: `event ${i}`,
    }));
    await post(`/v1/datasets/${DATASET}/ingest`, events);
    console.log(
      `${EVENTS} events, ${REQUESTS} sequential requests per query with ${CLIENT} (ms, client-side)`,
    );
    console.log('| query | p50 | p90 | p99 |\n|---|---:|---:|---:|');
    for (const [name, apl] of QUERIES) {
      if (ONLY !== null && name !== ONLY) continue;
      const body = { apl, startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' };
      const send =
        CLIENT === 'fetch'
          ? async () => {
              const res = await fetch(`${server.url}/v1/datasets/_apl?format=tabular`, {
                method: 'POST',
                headers,
                body: JSON.stringify(body),
              });
              if (!res.ok) throw new Error(`${name}: ${res.status}`);
              return res.json();
            }
          : async () => JSON.parse(await post('/v1/datasets/_apl?format=tabular', body));
      for (let i = 0; i < 50; i++) await send();
      const times = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t0 = performance.now();
        await send();
        times.push(performance.now() - t0);
      }
      console.log(
        `| ${name} | ${pct(times, 0.5).toFixed(2)} | ${pct(times, 0.9).toFixed(2)} | ${pct(times, 0.99).toFixed(2)} |`,
      );
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
