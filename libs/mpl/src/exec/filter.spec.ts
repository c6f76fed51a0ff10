import type { MetricTagValue } from '@quarry/contracts';
import { parseMpl } from '../syntax/parser';
import { compileFilter } from './filter';
import type { TagMap } from './frame';

const s = (value: string): MetricTagValue => ({ type: 'string', value });
const i = (value: number): MetricTagValue => ({ type: 'int', value });
const f = (value: number): MetricTagValue => ({ type: 'float', value });
const b = (value: boolean): MetricTagValue => ({ type: 'bool', value });

function matches(where: string, tags: TagMap): boolean {
  const q = parseMpl(`ds:m | where ${where}`).query;
  if (q.kind !== 'simple') throw new Error('simple');
  return compileFilter(q.filters[0].expr, new Map())(tags);
}

describe('MPL filters', () => {
  const tags: TagMap = { host: s('host-a'), cores: i(8), load: f(0.5), canary: b(false), code: s('500') };

  it.each([
    ['host == "host-a"', true],
    ['host != "host-a"', false],
    ['cores == 8', true],
    ['cores == 8.0', true], // int and float compare numerically
    ['load < 1', true],
    ['cores >= 8 and cores <= 8', true],
    ['cores > 8', false],
    ['code == 500', false], // string tag vs number: no coercion
    ['code != 500', true], // != is not ==
    ['code >= 500', false],
    ['host < "host-b"', true], // byte-wise string order
    ['host > "host-B"', true],
    ['canary == false', true],
    ['canary < true', true],
    ['canary == "false"', false],
    ['missing == "x"', false],
    ['missing != "x"', true],
    ['missing < 3', false],
    ['not missing < 3', true],
    ['host == #/st-/', true], // unanchored search
    ['host == #/^st/', false],
    ['host != #/-[ab]$/', false],
    ['cores == #/8/', false], // regex only on strings
    ['cores != #/8/', true],
    ['cores is int', true],
    ['cores is float', false],
    ['load is float', true],
    ['missing is string', false],
    ['host == "x" or cores == 8 and load < 1', true],
    ['(host == "x" or cores == 8) and load > 1', false],
    ['host == #/(?i)HOST/', true],
  ])('%s → %s', (where, expected) => {
    expect(matches(where, tags)).toBe(expected);
  });

  it('treats a null (group-absent) tag as missing', () => {
    expect(matches('host == "x"', { host: null })).toBe(false);
    expect(matches('host != "x"', { host: null })).toBe(true);
  });

  it('rejects a regex the engine cannot compile', () => {
    expect(() => matches('host == #/(/', tags)).toThrow(/invalid regex/);
  });
});
