// A consistent backup of a running standalone server, while it keeps ingesting (docs/operations.md).
//
//   QUARRY_TOKEN=xaat-... npm run backup -- /backups/quarry-2026-11-26
//   QUARRY_URL=http://127.0.0.1:8080 (default: http://127.0.0.1:$PORT, PORT defaulting to 8080)
//
// The server copies its data directory into the given directory (an absolute path on the server's
// machine, which must not exist or be empty) through POST /v1/admin/backup, which needs an API token with
// every org capability (the bootstrap admin token). Prints the backup's manifest; exits 1 on failure.
import * as path from 'node:path';

const dir = process.argv[2];
if (!dir || process.argv.includes('--help')) {
  process.stderr.write('usage: QUARRY_TOKEN=xaat-... npm run backup -- <backup dir>\n');
  process.exit(dir ? 0 : 2);
}
const token = process.env.QUARRY_TOKEN;
if (!token) {
  process.stderr.write('set QUARRY_TOKEN to an admin API token (e.g. the value of QUARRY_BOOTSTRAP_TOKEN)\n');
  process.exit(2);
}
const url = process.env.QUARRY_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;

let res;
try {
  res = await fetch(`${url}/v1/admin/backup`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ dir: path.resolve(dir) }),
  });
} catch (err) {
  process.stderr.write(`cannot reach the server at ${url}: ${err.cause?.message ?? err.message}\n`);
  process.exit(1);
}
const text = await res.text();
if (res.status !== 200) {
  process.stderr.write(`backup failed: HTTP ${res.status} ${text}\n`);
  process.exit(1);
}
const manifest = JSON.parse(text);
process.stdout.write(
  `backup written to ${path.resolve(dir)}: ${manifest.files} files, ${manifest.bytes} bytes (metastore held ${manifest.heldMs} ms)\n`,
);
