/**
 * Runs the APL conformance corpus (test/conformance/apl) in-process through `runApl`. Every CORE case must
 * pass; COMMON and RARE cases that fail must be listed in KNOWN_FAILING with a reason, so the list can
 * only shrink.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isQuarryError, parseRfc3339 } from '@quarry/common';
import { runApl } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';
import { compareResult, tabularToResult, type Expectation } from './testing/compare-result';

const DIR = join(__dirname, '../../../test/conformance/apl');

interface Case {
  id: string;
  apl: string;
  startTime: string;
  endTime: string;
  expect: Expectation & { error?: boolean };
  tolerance?: number;
  tier: 'core' | 'common' | 'rare';
}

/** Known failures (id → reason). A case that starts passing must be removed from this list. */
const KNOWN_FAILING: Record<string, string> = {};

const events = readFileSync(join(DIR, 'events.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const cases: Case[] = readFileSync(join(DIR, 'cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Case);
// Small batches so multi-batch paths (and kind changes between batches) are exercised.
const catalog = new MemoryCatalog({ 'sample-http-logs': events }, { batchSize: 37 });

async function runCase(c: Case): Promise<{ ok: boolean; reason?: string }> {
  const startMs = parseRfc3339(c.startTime)!;
  const endMs = parseRfc3339(c.endTime)!;
  try {
    const out = await runApl(c.apl, { startMs, endMs, nowMs: Date.UTC(2024, 4, 3), catalog });
    if (c.expect.error) return { ok: false, reason: 'expected an error, got a result' };
    return compareResult(c.expect, tabularToResult(out.tables[0]), c.tolerance ?? 1e-9);
  } catch (err) {
    if (c.expect.error) {
      return isQuarryError(err) && err.kind === 'invalid'
        ? { ok: true }
        : { ok: false, reason: `expected invalid, got ${String(err)}` };
    }
    return { ok: false, reason: `error: ${(err as Error).message}` };
  }
}

describe('APL conformance corpus', () => {
  const results = new Map<string, { ok: boolean; reason?: string }>();

  beforeAll(async () => {
    for (const c of cases) results.set(c.id, await runCase(c));
    const byTier: Record<string, [number, number]> = {};
    for (const c of cases) {
      const t = (byTier[c.tier] ??= [0, 0]);
      t[1]++;
      if (results.get(c.id)!.ok) t[0]++;
    }
    console.log(
      'conformance: ' +
        Object.entries(byTier)
          .map(([tier, [p, n]]) => `${tier} ${p}/${n}`)
          .join(', '),
    );
  });

  for (const c of cases) {
    const known = KNOWN_FAILING[c.id];
    it(`${c.tier} ${c.id}${known ? ' (known failing)' : ''}`, () => {
      const r = results.get(c.id)!;
      if (c.tier === 'core' || !known) {
        expect({ id: c.id, ok: r.ok, reason: r.reason }).toEqual({ id: c.id, ok: true, reason: undefined });
      } else {
        // Still failing is fine; passing means the entry should be removed from KNOWN_FAILING.
        expect({ id: c.id, nowPasses: r.ok }).toEqual({ id: c.id, nowPasses: false });
      }
    });
  }
});
