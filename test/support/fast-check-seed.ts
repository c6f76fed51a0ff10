/**
 * Every property test of a test file uses one fast-check seed: the `FC_SEED` that
 * `watchdog-environment.js` (jest's test environment here) sets for each file, a fresh one unless the run
 * was given one. It is written to stderr with `FC_SEED_LOG=1`, and the watchdog names it, so a failing or
 * hanging run can be reproduced with `FC_SEED=<seed> npx jest <file>`.
 */
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED);
if (!Number.isInteger(seed))
  throw new Error(
    `FC_SEED must be an integer (got ${JSON.stringify(process.env.FC_SEED)}); ` +
      'the watchdog test environment sets it for each file unless the run gives one',
  );
fc.configureGlobal({ seed });
if (process.env.FC_SEED_LOG)
  process.stderr.write(`fast-check seed ${seed} (${expect.getState().testPath ?? ''})\n`);
