// Deterministic generator of HTTP-log events (seeded), the shape bench/ and perf notes use:
// ~500 B/event, 12 fields incl. nested geo.{city,country}, a unique 16-hex id, a ~100-char message of which
// 2.5% contain "timeout" in some case (1.5% lower-case).
//
//   node bench/generate.mjs --events 100000 [--seed 42] > events.ndjson
//   import { generateEvents } from './generate.mjs'  (yields NDJSON lines)

const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'];
const STATUSES = [
  '200',
  '200',
  '200',
  '200',
  '200',
  '200',
  '201',
  '204',
  '301',
  '304',
  '400',
  '401',
  '403',
  '404',
  '404',
  '500',
  '502',
  '503',
];
const URIS = Array.from(
  { length: 200 },
  (_, i) =>
    `/api/v${1 + (i % 3)}/${['users', 'orders', 'items', 'cart', 'search', 'login', 'logout', 'health'][i % 8]}/${i}`,
);
const GEO = [
  ['New York', 'United States'],
  ['San Francisco', 'United States'],
  ['Berlin', 'Germany'],
  ['Paris', 'France'],
  ['Tokyo', 'Japan'],
  ['London', 'United Kingdom'],
  ['São Paulo', 'Brazil'],
  ['Mumbai', 'India'],
  ['Sydney', 'Australia'],
  ['Toronto', 'Canada'],
  ['Madrid', 'Spain'],
  ['Seoul', 'South Korea'],
];
const DATACENTERS = ['FRA', 'IAD', 'NRT', 'GRU', 'SYD', 'AMS', 'SFO', 'SIN'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'python-requests/2.31.0',
  'curl/8.4.0',
  'Go-http-client/1.1',
];
const WORDS = [
  'request',
  'served',
  'user',
  'cache',
  'miss',
  'hit',
  'upstream',
  'latency',
  'backend',
  'retry',
  'session',
  'token',
  'queue',
  'worker',
  'database',
  'query',
  'slow',
  'ok',
  'handled',
  'connection',
];

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Yields `count` NDJSON lines; `_time` spreads over `spanMs` ending at `endMs`. */
export function* generateEvents(
  count,
  { seed = 42, endMs = Date.UTC(2024, 4, 2), spanMs = 86_400_000 } = {},
) {
  const rnd = mulberry32(seed);
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  const startMs = endMs - spanMs;
  for (let i = 0; i < count; i++) {
    const time = startMs + Math.floor((i / count) * spanMs + rnd() * 1000);
    const [city, country] = pick(GEO);
    const words = [];
    while (words.join(' ').length < 90) words.push(pick(WORDS));
    const roll = rnd();
    if (roll < 0.015) words.splice(3, 0, 'timeout');
    else if (roll < 0.025) words.splice(3, 0, pick(['Timeout', 'TIMEOUT', 'TimeOut']));
    const id =
      Math.floor(rnd() * 0xffffffff)
        .toString(16)
        .padStart(8, '0') +
      Math.floor(rnd() * 0xffffffff)
        .toString(16)
        .padStart(8, '0');
    yield JSON.stringify({
      _time: new Date(time).toISOString(),
      method: pick(METHODS),
      status: pick(STATUSES),
      uri: pick(URIS),
      req_duration_ms: Math.round(rnd() * rnd() * 2000 * 1000) / 1000,
      resp_body_size_bytes: Math.floor(rnd() * 50000),
      resp_header_size_bytes: 20 + Math.floor(rnd() * 200),
      id,
      geo: { city, country },
      server_datacenter: pick(DATACENTERS),
      user_agent: pick(AGENTS),
      is_tls: rnd() < 0.8,
      message: words.join(' '),
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
  const count = Number(opt('events', '100000'));
  const seed = Number(opt('seed', '42'));
  let buffer = '';
  for (const line of generateEvents(count, { seed })) {
    buffer += line + '\n';
    if (buffer.length > 1 << 20) {
      process.stdout.write(buffer);
      buffer = '';
    }
  }
  process.stdout.write(buffer);
}
