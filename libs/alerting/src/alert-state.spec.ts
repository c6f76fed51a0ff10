import { EMPTY_STATE, step, type MonitorState } from './alert-state';
import { evaluateAnomaly, evaluateMatchEvent, evaluateThreshold } from './evaluate';
import { monitorSpecOf, type MonitorSpec } from './monitor-spec';
import type { ResultRows } from './result-rows';

const MINUTE = 60_000;

/** Runs a monitor over one result per interval and prints what happened at each run. */
function replay(spec: MonitorSpec, results: ResultRows[]): string[] {
  let state: MonitorState = EMPTY_STATE;
  const printed: string[] = [];
  results.forEach((result, i) => {
    const observation =
      spec.type === 'MatchEvent' ? evaluateMatchEvent(spec, result) : evaluateThreshold(spec, result);
    const next = step(spec, state, observation, (i + 1) * spec.intervalMs);
    state = next.state;
    // A still-open alert that notifies nobody is not worth a line.
    const changes = next.changes
      .filter((c) => c.kind !== 'still-open' || c.notify)
      .map(
        (c) =>
          `${c.kind}${c.checkId === spec.id ? '' : ` ${c.name}`}${c.notify ? '!' : ''}${c.events.length ? `×${c.events.length}` : ''}`,
      );
    printed.push(changes.join(',') || '-');
  });
  return printed;
}

/** One `count` row per interval; `null` = the query returned no rows. */
const counts = (...values: (number | null)[]): ResultRows[] =>
  values.map((v) => ({ rows: v === null ? [] : [{ count_: v }], groupFields: [] }));

const threshold = (extra: Record<string, unknown> = {}) =>
  monitorSpecOf('mon_t', {
    name: 'errors',
    type: 'Threshold',
    operator: 'Above',
    threshold: 10,
    aplQuery: 'x',
    ...extra,
  });

describe('threshold state machine', () => {
  it.each([
    ['fires once and resolves once', {}, [1, 20, 30, 5, 4], ['-', 'open!', '-', 'closed!', '-']],
    [
      'notifies every run while open',
      { notifyEveryRun: true },
      [20, 30, 5],
      ['open!', 'still-open!', 'closed!'],
    ],
    [
      'does not notify the resolution with skipResolved',
      { skipResolved: true },
      [20, 5],
      ['open!', 'closed'],
    ],
    ['never closes when not resolvable', { resolvable: false }, [20, 5, 20], ['open!', '-', 'open!']],
    [
      'needs 2 positives',
      { triggerAfterNPositiveResults: 2 },
      [20, 5, 20, 20, 5],
      ['-', '-', '-', 'open!', 'closed!'],
    ],
    [
      'needs 2 positives of the last 3 runs, and stays open while 2 of 3 are',
      { triggerAfterNPositiveResults: 2, triggerFromNRuns: 3 },
      [20, 20, 5, 20, 5, 5, 5],
      ['-', 'open!', '-', '-', 'closed!', '-', '-'],
    ],
    ['BelowOrEqual', { operator: 'BelowOrEqual' }, [11, 10, 9, 11], ['-', 'open!', '-', 'closed!']],
    [
      'AboveOrBelow is outside [-t, t]',
      { operator: 'AboveOrBelow' },
      [-11, 0, 11],
      ['open!', 'closed!', 'open!'],
    ],
    ['treats no data as negative', {}, [20, null], ['open!', 'closed!']],
    ['alerts on no data', { alertOnNoData: true }, [null, 5, null], ['open!', 'closed!', 'open!']],
  ])('%s', (_what, extra, values, expected) => {
    expect(replay(threshold(extra), counts(...values))).toEqual(expected);
  });

  it('opens and closes per group with notifyByGroup, and as one alert without it', () => {
    const rows = (a: number, b: number): ResultRows => ({
      rows: [
        { host: 'a', n: a },
        { host: 'b', n: b },
      ],
      groupFields: ['host'],
    });
    const results = [rows(20, 1), rows(20, 20), rows(1, 20), rows(1, 1)];
    expect(replay(threshold({ notifyByGroup: true }), results)).toEqual([
      'open errors (host=a)!',
      'open errors (host=b)!',
      'closed errors (host=a)!',
      'closed errors (host=b)!',
    ]);
    expect(replay(threshold(), results)).toEqual(['open!', '-', '-', 'closed!']);
  });

  it('compares columnName rather than the first numeric column', () => {
    const spec = threshold({ columnName: 'p99' });
    const result: ResultRows = { rows: [{ count_: 500, p99: 3 }], groupFields: [] };
    expect(replay(spec, [result])).toEqual(['-']);
  });
});

describe('MatchEvent', () => {
  const spec = monitorSpecOf('mon_m', {
    name: 'panics',
    type: 'MatchEvent',
    aplQuery: 'x',
    intervalMinutes: 1,
    rangeMinutes: 2,
  });
  const events = (...ids: string[]): ResultRows => ({
    rows: ids.map((id) => ({ _time: id, id })),
    groupFields: [],
  });

  it('notifies every matching event once, though overlapping windows read it twice', () => {
    expect(replay(spec, [events('e1'), events('e1', 'e2'), events('e2'), events(), events('e3')])).toEqual([
      'open!×1',
      'still-open!×1',
      'closed!',
      '-',
      'open!×1',
    ]);
  });

  it('forgets events once the window moved past them', () => {
    const { state } = step(spec, EMPTY_STATE, evaluateMatchEvent(spec, events('e1')), 1 * MINUTE);
    const later = step(spec, state, evaluateMatchEvent(spec, events()), 4 * MINUTE);
    expect(later.state.seen).toEqual({});
  });
});

describe('AnomalyDetection', () => {
  const spec = monitorSpecOf('mon_a', {
    name: 'traffic',
    type: 'AnomalyDetection',
    aplQuery: 'x',
    compareDays: 3,
    tolerance: 50,
  });
  const value = (v: number): ResultRows => ({ rows: [{ n: v }], groupFields: [] });

  it.each([
    [100, [100, 90, 110], false],
    [149, [100, 100, 100], false],
    [151, [100, 100, 100], true],
    [49, [100, 100, 100], true],
    [500, [], false],
  ])('current %d against baselines %j: positive %s', (current, days, positive) => {
    const observation = evaluateAnomaly(spec, value(current), days.map(value));
    expect(observation.get('')?.positive).toBe(positive);
  });

  it('only looks above with operator Above', () => {
    const above = monitorSpecOf('mon_a', {
      name: 'x',
      type: 'AnomalyDetection',
      aplQuery: 'x',
      tolerance: 10,
      operator: 'Above',
    });
    expect(evaluateAnomaly(above, value(1), [value(100)]).get('')?.positive).toBe(false);
    expect(evaluateAnomaly(above, value(200), [value(100)]).get('')?.positive).toBe(true);
  });
});

describe('generated data', () => {
  // A monitor's open/close history must alternate, start with an open, and opens must match the
  // number of times the N-of-M rule became true, whatever the data.
  it('alternates open and closed for random series and trigger settings', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 3);
      const m = n + Math.floor(random() * 3);
      const spec = threshold({ triggerAfterNPositiveResults: n, triggerFromNRuns: m });
      const values = Array.from({ length: 30 }, () => Math.floor(random() * 20));
      const printed = replay(spec, counts(...values)).filter((p) => p !== '-');
      let expectOpen = true;
      for (const p of printed) {
        expect(p).toBe(expectOpen ? 'open!' : 'closed!');
        expectOpen = !expectOpen;
      }
      // Recompute the rule independently.
      let open = false;
      const window: boolean[] = [];
      let opens = 0;
      for (const v of values) {
        window.push(v > 10);
        if (window.length > m) window.shift();
        const now = window.filter(Boolean).length >= n;
        if (now && !open) opens++;
        open = now;
      }
      expect(printed.filter((p) => p === 'open!')).toHaveLength(opens);
    }
  });
});
