import { isQuarryError } from '@quarry/common';
import { chooseInterval, resolveParams } from './params';
import { parseMpl } from './parser';

function resolve(text: string, params?: Record<string, string>) {
  return resolveParams(parseMpl(text), params, 60);
}

function errorMessage(text: string, params?: Record<string, string>): string {
  try {
    resolve(text, params);
  } catch (err) {
    if (isQuarryError(err)) {
      expect(err.code).toBe('mpl_param');
      return err.message;
    }
    throw err;
  }
  throw new Error('expected a param error');
}

describe('MPL params', () => {
  it('binds every type from MPL literals, with or without the param__ prefix', () => {
    const { values } = resolve(
      'param $d: Dataset; param $w: Duration; param $r: Regex; param $s: string; param $i: int; param $f: float; param $b: bool;\n' +
        '$d:m | where a == $s and b == $i and c == $f and e == $b and g == $r | align to $w using avg',
      {
        param__d: '`my.ds`',
        param__w: '15m',
        param__r: '#/^a\\/b/',
        param__s: '"x y"',
        i: '-3',
        param__f: '2.5',
        param__b: 'true',
      },
    );
    expect(Object.fromEntries(values)).toMatchObject({
      d: { type: 'Dataset', name: 'my.ds' },
      w: { type: 'Duration', seconds: 900 },
      r: { type: 'Regex', pattern: '^a/b' },
      s: { type: 'string', value: 'x y' },
      i: { type: 'int', value: -3 },
      f: { type: 'float', value: 2.5 },
      b: { type: 'bool', value: true },
    });
  });

  it('provides $__interval and $__rate_interval without a declaration', () => {
    const { values } = resolve('ds:m | align to $__rate_interval using avg');
    expect(values.get('__interval')).toMatchObject({ seconds: 60 });
    expect(values.get('__rate_interval')).toMatchObject({ seconds: 240 });
  });

  it('reports supplied values nobody declared (a warning, not an error)', () => {
    expect(resolve('ds:m', { param__zzz: '1' }).unusedSupplied).toEqual(['zzz']);
  });

  it('rejects misuse with messages that name the param', () => {
    expect(errorMessage('ds:m | align to $w using avg')).toContain('param $w is not defined');
    expect(
      errorMessage('param $w: Duration; param $w: Duration; ds:m | align to $w using avg', { w: '1m' }),
    ).toContain('declared twice');
    expect(errorMessage('param $w: Duration; ds:m | align to $w using avg')).toContain(
      'param $w is declared but no value was supplied',
    );
    expect(errorMessage('param $w: string; ds:m | align to $w using avg', { w: '"5m"' })).toContain(
      'has type string, but a Duration is needed here',
    );
    expect(errorMessage('param $w: Duration; $w:m', { w: '5m' })).toContain('but a Dataset is needed');
    expect(errorMessage('param $w: Duration; ds:m | where a == $w', { w: '5m' })).toContain(
      'Duration, but a string or int',
    );
    expect(errorMessage('param $w: Duration; ds:m | align to $w using avg', { w: '"5m"' })).toContain(
      'expected a Duration literal',
    );
    expect(errorMessage('param $i: int; ds:m | where a == $i', { i: '1.5' })).toContain(
      'expected a int literal',
    );
    expect(errorMessage('param $r: Regex; ds:m | where a < $r', { r: '#/x/' })).toContain(
      'only be compared with == or !=',
    );
  });

  it('lets an ifdef param stay unsupplied', () => {
    expect(() => resolve('param $s: string; ds:m | ifdef($s) { where a == $s }')).not.toThrow();
  });

  it('chooses $__interval as a friendly step giving at most ~250 points', () => {
    expect(chooseInterval(3600)).toBe(15);
    expect(chooseInterval(7200)).toBe(30);
    expect(chooseInterval(86400)).toBe(600);
    expect(chooseInterval(7 * 86400)).toBe(3600);
    expect(chooseInterval(10)).toBe(1);
  });
});
