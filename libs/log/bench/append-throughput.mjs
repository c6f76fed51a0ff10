// Append throughput of FileSegmentLog on this machine: N records of SIZE bytes from C concurrent appenders,
// each awaiting its own append (one record per call, like one ingest request per call).
// Usage: npx tsc -b libs/log && node libs/log/bench/append-throughput.mjs [records] [size] [appenders] [dir]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { FileSegmentLog } = require('../dist/index.js');

const total = Number(process.argv[2] ?? 100_000);
const size = Number(process.argv[3] ?? 1024);
const appenders = Number(process.argv[4] ?? 16);
const dir = mkdtempSync(join(process.argv[5] ?? tmpdir(), 'quarry-log-bench-'));
const payload = new Uint8Array(size).fill(97);

const log = await FileSegmentLog.open(dir);
let issued = 0;
const started = process.hrtime.bigint();
await Promise.all(
  Array.from({ length: appenders }, async () => {
    while (issued < total) {
      issued++;
      await log.append('k', [payload]);
    }
  }),
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const stats = log.stats();
await log.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    records: stats.appendedRecords,
    size,
    appenders,
    seconds: +seconds.toFixed(3),
    recordsPerSecond: Math.round(stats.appendedRecords / seconds),
    mbPerSecond: +(stats.appendedBytes / seconds / 1e6).toFixed(2),
    fsyncs: stats.fsyncs,
    fsyncsPerSecond: Math.round(stats.fsyncs / seconds),
    recordsPerFsync: +(stats.appendedRecords / stats.fsyncs).toFixed(1),
  }),
);
