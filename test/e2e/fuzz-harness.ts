import * as http from 'node:http';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * What the HTTP fuzzers (test/e2e/fuzz-*.test.ts, issue 17) share: how many inputs to run, a standalone
 * server in this process, a request that never throws on a strange answer, and the tally that must end
 * with no 500 and no crash.
 *
 * CI runs each fuzzer's default share of 10,000 inputs; `npm run fuzz -- --inputs N` (scripts/fuzz.mjs)
 * spreads N over the fuzzers through QUARRY_FUZZ_INPUTS_<NAME>.
 */
export function fuzzInputs(name: string, ciDefault: number): number {
  const raw = process.env[`QUARRY_FUZZ_INPUTS_${name.toUpperCase()}`];
  const n = raw === undefined ? ciDefault : Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`QUARRY_FUZZ_INPUTS_${name.toUpperCase()}=${raw}`);
  return n;
}

/** A test timeout proportional to the inputs (a floor for small runs). */
export const fuzzTimeoutMs = (inputs: number, msPerInput = 40) => Math.max(120_000, inputs * msPerInput);

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request over node:http (so headers fetch refuses, like a wrong Content-Length, can be sent).
 * A connection the server closed is answered status 0, which the tally counts as a crash unless the
 * server is still alive.
 */
export function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<Answer> {
  return new Promise((resolve) => {
    const target = new URL(url);
    let req: http.ClientRequest;
    try {
      req = http.request(
        { host: target.hostname, port: target.port, method, path, headers, agent: keepAlive },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString(),
            }),
          );
          res.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
        },
      );
    } catch (err) {
      // node:http refused the request itself (an invalid header): nothing reached the server.
      resolve({ status: -1, headers: {}, body: (err as Error).message });
      return;
    }
    req.setTimeout(60_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, headers: {}, body: err.message }));
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Counts answers by status and remembers the first input that got each unexpected one. */
export class Tally {
  readonly statuses = new Map<number, number>();
  readonly samples = new Map<number, string>();
  inputs = 0;

  record(answer: Answer, input: () => string): void {
    this.inputs++;
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    if ((answer.status >= 500 || answer.status === 0) && !this.samples.has(answer.status)) {
      this.samples.set(answer.status, `${input()}\n  -> ${answer.status} ${answer.body.slice(0, 500)}`);
    }
  }

  /**
   * Statuses >= 500 other than 501/503/507 (an operation Quarry declines, overload and disk full are
   * honest answers), and lost connections.
   */
  failures(): string[] {
    const bad: string[] = [];
    for (const [status, sample] of this.samples) {
      if (status === 501 || status === 503 || status === 507) continue;
      bad.push(`${this.statuses.get(status)} x ${status}, first: ${sample}`);
    }
    return bad;
  }

  summary(): string {
    return [...this.statuses.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
  }
}

/** Unhandled errors in this process (the server runs in it): each one is a crash. */
export function watchCrashes(): { crashes: string[]; stop(): void } {
  const crashes: string[] = [];
  const onError = (err: unknown) => crashes.push(String((err as Error)?.stack ?? err));
  process.on('unhandledRejection', onError);
  process.on('uncaughtException', onError);
  return {
    crashes,
    stop() {
      process.off('unhandledRejection', onError);
      process.off('uncaughtException', onError);
    },
  };
}

export async function startFuzzServer(): Promise<TestServer> {
  return startTestServer({ QUARRY_COMPACT_INTERVAL_MS: '500' });
}

/**
 * Every row the server stores, whatever its time: the log is compacted first, then block rows are
 * read from the storage itself (a query cannot see rows dated before 1970, which ingest accepts).
 */
export async function storedRows(server: TestServer): Promise<number> {
  await server.compact();
  const storage = server.quarry.storage;
  return storage.tail.rows + storage.blocks.totals().rows;
}

/** Rows of an APL count, or throws. */
export async function countRows(server: TestServer, dataset: string): Promise<number> {
  const res = await server.request('POST', '/v1/datasets/_apl?format=tabular', {
    body: {
      apl: `['${dataset}'] | count`,
      startTime: '1970-01-01T00:00:00Z',
      endTime: '9999-12-31T23:59:59.999Z',
    },
  });
  if (res.status !== 200) throw new Error(`count of ${dataset}: ${res.status} ${await res.text()}`);
  return Number((await res.json()).tables[0].columns[0][0]);
}

/** Byte-level mutations of a text: the classic fuzzer moves (flip, insert, delete, duplicate, splice). */
export function mutate(text: string, ops: readonly MutationOp[]): string {
  let s = text;
  for (const op of ops) {
    const at = s.length === 0 ? 0 : op.at % (s.length + 1);
    switch (op.kind) {
      case 'insert':
        s = s.slice(0, at) + op.text + s.slice(at);
        break;
      case 'delete':
        s = s.slice(0, at) + s.slice(at + op.length);
        break;
      case 'replace':
        s = s.slice(0, at) + op.text + s.slice(at + op.text.length);
        break;
      case 'duplicate':
        s = s.slice(0, at) + s.slice(at, at + op.length).repeat(2) + s.slice(at + op.length);
        break;
      case 'truncate':
        s = s.slice(0, at);
        break;
    }
  }
  return s;
}

export type MutationOp =
  | { kind: 'insert' | 'replace'; at: number; text: string }
  | { kind: 'delete' | 'duplicate'; at: number; length: number }
  | { kind: 'truncate'; at: number };
