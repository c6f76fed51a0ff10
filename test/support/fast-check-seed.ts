/**
 * Every property test of a test file uses one fast-check seed: `FC_SEED` when set (to replay a failure;
 * `watchdog-environment.js` sets it for each file, to a fresh one unless the run was given one),
 * otherwise a fresh one. It is written to stderr so a failing or hanging run can be reproduced with
 * `FC_SEED=<seed> npx jest <file>`.
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
fc.configureGlobal({ seed });
if (process.env.FC_SEED_LOG)
  process.stderr.write(`fast-check seed ${seed} (${expect.getState().testPath ?? ''})\n`);
