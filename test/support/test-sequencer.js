/**
 * Jest's default order (failed first, then longest first) with a fallback for a machine without jest's
 * cache, a fresh CI clone among them: there jest knows no durations and runs the largest files first,
 * which leaves the long server suites for last and one worker idle at the end (2,100 s against about
 * 1,560 s with durations known, on this project's 2 cores). `suite-durations.json` holds each file's
 * duration (ms) from one full CI run; the cache, where present, is newer and wins. A file in neither
 * (a new one) runs first, as jest does. Refresh the file after a full run from jest's cache
 * (`npx jest --showConfig | grep cacheDirectory`, the `perf-cache-*` files, paths made relative).
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const durations = require('./suite-durations.json');

class DurationSequencer extends Sequencer {
  time(test) {
    return super.time(test) ?? durations[path.relative(test.context.config.rootDir, test.path)];
  }
}

module.exports = DurationSequencer;
