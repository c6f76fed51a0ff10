/**
 * The program of the worker thread that hosts PGlite, as plain JavaScript evaluated by `new Worker(...,
 * { eval: true })`. It is a string, not a module, so it runs the same from `dist/` and under Jest's
 * TypeScript transform (a worker never goes through Jest's module sandbox, which is the point: PGlite's
 * CommonJS build loads Node built-ins with dynamic `import()`, which the sandbox cannot run).
 *
 * Protocol: the parent posts `{ id, op, sql?, params? }`; the worker answers `{ id, result }` or
 * `{ id, error }`, in order per request. Ops: `query` (rows), `exec`, `commit`, `dump` (the data directory as a tar
 * ArrayBuffer), `close`. Transactions are BEGIN/COMMIT statements; the parent serializes them.
 */
export const PGLITE_WORKER_SCRIPT = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglitePath);

function serializeError(err) {
  const out = { name: 'Error', message: String(err) };
  if (err && typeof err === 'object') {
    for (const key of ['name', 'message', 'code', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'severity', 'position', 'stack']) {
      if (typeof err[key] === 'string') out[key] = err[key];
    }
  }
  return out;
}

let db = null;
const ready = (async () => {
  const options = {};
  if (workerData.dataDir !== null) options.dataDir = workerData.dataDir;
  if (workerData.template !== null) options.loadDataDir = new Blob([workerData.template]);
  db = await PGlite.create(options);
})();

// Memory, for the parent's /metrics: heap, external, ArrayBuffers, PGlite's WebAssembly memory (it
// grows with the data and never shrinks), time written. A shared array: no message, read when scraped.
if (workerData.memory) {
  const memory = new Float64Array(workerData.memory);
  const report = () => {
    const usage = process.memoryUsage();
    let wasm = 0;
    try {
      wasm = db && db.mod && db.mod.HEAPU8 ? db.mod.HEAPU8.byteLength : 0;
    } catch {
      wasm = 0;
    }
    memory[0] = usage.heapUsed;
    memory[1] = usage.heapTotal;
    memory[2] = usage.external;
    memory[3] = usage.arrayBuffers;
    memory[4] = wasm;
    memory[5] = Date.now();
  };
  report();
  setInterval(report, 2000).unref();
}

ready.then(
  () => parentPort.postMessage({ id: 0, result: null }),
  (err) => parentPort.postMessage({ id: 0, error: serializeError(err) }),
);

parentPort.on('message', async (msg) => {
  try {
    await ready;
    let result = null;
    const transfer = [];
    switch (msg.op) {
      case 'query':
        result = (await db.query(msg.sql, msg.params)).rows;
        break;
      case 'exec':
        await db.exec(msg.sql);
        break;
      case 'commit': {
        // COMMIT of a transaction that saw an error rolls back without failing; surface it.
        const results = await db.exec('COMMIT');
        if (results.length > 0 && results[0].command === 'ROLLBACK') {
          const err = new Error('the transaction was aborted by an earlier error and has been rolled back');
          err.code = '25P02';
          throw err;
        }
        break;
      }
      case 'dump': {
        const blob = await db.dumpDataDir('none');
        result = await blob.arrayBuffer();
        transfer.push(result);
        break;
      }
      case 'close':
        await db.close();
        break;
      default:
        throw new Error('unknown op ' + msg.op);
    }
    parentPort.postMessage({ id: msg.id, result }, transfer);
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: serializeError(err) });
  }
});
`;
