/**
 * Jest's node environment with a watchdog per test file.
 *
 * A suite stuck in synchronous code (an endless loop, say, on one fast-check seed) blocks its jest worker
 * for good: no test timeout can fire on a busy thread, and the run waits until CI's own limit ends it
 * without a word of which suite hung. A worker thread, whose timers run whatever the suite's thread is
 * doing, watches each file: past `QUARRY_SUITE_LIMIT_MS` (15 minutes; the longest suite takes about two)
 * it writes the file's path and fast-check seed to stderr and kills the jest worker. Jest reports that
 * file as failed and the run goes on. The environment's teardown runs even when every test of a file is
 * skipped, so no watchdog outlives its file.
 *
 * The fast-check seed is drawn here (or taken from `FC_SEED`) so that the watchdog can name it;
 * `fast-check-seed.ts` applies it.
 */
const { TestEnvironment } = require('jest-environment-node');
const { Worker } = require('node:worker_threads');

const LIMIT_MS = Number(process.env.QUARRY_SUITE_LIMIT_MS ?? 15 * 60_000);

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
setTimeout(() => {
  writeSync(2, '\\nsuite watchdog: ' + workerData.suite + ' still running after ' + workerData.limitMs +
    ' ms (FC_SEED=' + workerData.seed + '); killing its jest worker\\n');
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.limitMs);
`;

class WatchdogEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.watchdog = null;
  }

  async setup() {
    await super.setup();
    const seed = process.env.FC_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
    this.global.process.env.FC_SEED = seed;
    this.watchdog = new Worker(WATCHDOG, {
      eval: true,
      workerData: { suite: this.testPath, seed, limitMs: LIMIT_MS, pid: process.pid },
    });
    this.watchdog.unref();
  }

  async teardown() {
    await this.watchdog?.terminate();
    await super.teardown();
  }
}

module.exports = WatchdogEnvironment;
