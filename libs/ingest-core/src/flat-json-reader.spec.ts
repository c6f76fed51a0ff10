import fc from 'fast-check';
import { EventBatchBuilder } from '@quarry/contracts';
import { FlatJsonReader } from './flat-json-reader';
import { resolveLimits } from './limits';
import type { NormalizeContext } from './normalize-event';
import { parseIngestBatch, parseIngestBody } from './parse-ingest-body';

const NOW = Date.UTC(2024, 4, 1);

function context(overrides: Partial<NormalizeContext> = {}): NormalizeContext {
  return {
    timestampField: '_time',
    timestampFormat: undefined,
    labels: null,
    mapFields: new Set(),
    nowMs: NOW,
    limits: resolveLimits(undefined),
    ...overrides,
  };
}

/** Reads each line with a fresh reader; the time per line, null where the line was given back. */
function readLines(lines: string[], ctx = context()) {
  const builder = new EventBatchBuilder(lines.length, { utf8: true });
  const reader = new FlatJsonReader(ctx, builder);
  const times = lines.map((line) => {
    const body = Buffer.from(line);
    return reader.read(body, 0, body.length);
  });
  return { times, builder };
}

describe('FlatJsonReader', () => {
  it('reads plain events from their bytes: strings as UTF-8, numbers, booleans, nulls, nested names, arrays', () => {
    const lines = [
      '{"_time":"2024-05-01T00:00:01.5Z","method":"GET","status":200,"geo":{"city":"São Paulo","cc":"BR"},"ok":true,"tags":["a",1],"none":null,"d":-0.25}',
      ' { "_time" : "2024-05-01T00:00:02Z" , "method" : "POST" , "status" : 404 , "geo" : { "city" : "Köln" } , "ok" : false , "msg" : "say \\"hi\\"" }\r',
    ];
    const { times, builder } = readLines(lines);
    expect(times).toEqual([Date.UTC(2024, 4, 1, 0, 0, 1, 500), Date.UTC(2024, 4, 1, 0, 0, 2)]);
    const batch = builder.finish();
    const column = (name: string) => batch.columns.get(name)!;
    const strings = (name: string) => {
      const c = column(name);
      if (c.kind !== 'string') throw new Error(`${name} is ${c.kind}`);
      return [...c.codes].map((code) => (code < 0 ? null : c.dict[code]));
    };
    expect(strings('method')).toEqual(['GET', 'POST']);
    expect(strings('geo.city')).toEqual(['São Paulo', 'Köln']);
    expect(strings('geo.cc')).toEqual(['BR', null]);
    expect(strings('msg')).toEqual([null, 'say "hi"']);
    expect(column('status')).toEqual({ kind: 'long', values: Float64Array.of(200, 404), nulls: null });
    expect(column('d')).toEqual({
      kind: 'real',
      values: Float64Array.of(-0.25, 0),
      nulls: Uint8Array.of(0, 1),
    });
    expect(column('ok')).toEqual({ kind: 'bool', values: Uint8Array.of(1, 0), nulls: null });
    expect(column('tags')).toEqual({ kind: 'dynamic', values: [['a', 1], null] });
    expect(strings('none')).toEqual([null, null]);
    // The UTF-8 dictionary holds the bytes of the body.
    const method = column('method');
    expect(method.kind === 'string' && Buffer.from(method.utf8!.bytes).toString()).toBe('GETPOST');
  });

  it.each([
    ['not an object', '[1]'],
    ['a repeated key', '{"a":1,"a":2}'],
    ['a repeated flattened name', '{"a.b":1,"a":{"b":2}}'],
    ['a name repeated under the key ""', '{"":{"n":1},"n":2}'],
    ['a key with an escape', '{"a\\u0062":1}'],
    ['an index-like key (ordered first by JS)', '{"b":1,"7":2}'],
    ['a reserved name', '{"_sysTime":1}'],
    ['a top-level data object (the grouped form)', '{"data":{"a":1}}'],
    ['a lone surrogate', '{"a":"\\ud800"}'],
    ['a raw control character', '{"a":"x\ty"}'],
    ['a time that does not parse', '{"_time":"soon"}'],
    ['a boolean time', '{"_time":true}'],
    ['trailing text', '{"a":1} x'],
    ['a trailing comma', '{"a":1,}'],
    ['a number JSON does not allow', '{"a":01}'],
    ['truncated', '{"a":"b'],
  ])('gives back a line with %s, having written nothing', (_why, line) => {
    const { times, builder } = readLines([line]);
    expect(times).toEqual([null]);
    expect(builder.length).toBe(0);
    expect([...builder.finish().columns.keys()]).toEqual(['_time', '_sysTime']);
  });

  it('gives back lines over a limit, and map fields', () => {
    const limits = { ...resolveLimits(undefined), maxFieldsPerEvent: 2, maxDepth: 2, maxStringBytes: 3 };
    const read = (line: string, ctx = context({ limits })) => readLines([line], ctx).times[0];
    expect(read('{"a":1,"b":2}')).toBe(NOW);
    expect(read('{"a":1,"b":2,"c":3}')).toBeNull();
    expect(read('{"a":{"b":1}}')).toBe(NOW);
    expect(read('{"a":{"b":{"c":1}}}')).toBeNull();
    expect(read('{"a":"abc"}')).toBe(NOW);
    expect(read('{"a":"abcd"}')).toBeNull();
    expect(read('{"m":{"x":1}}', context({ mapFields: new Set(['m']) }))).toBeNull();
  });

  it('reads every JSON number to the double JSON.parse gives', () => {
    const numberText = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => JSON.stringify(v)),
      fc
        .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,19})$/), fc.stringMatching(/^[0-9]{0,18}$/))
        .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`),
      fc
        .tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: -330, max: 330 }))
        .map(([m, e]) => `${m}e${e}`),
    );
    fc.assert(
      fc.property(numberText, (text) => {
        const { times, builder } = readLines([`{"x":${text}}`]);
        expect(times).toEqual([NOW]);
        const parsed = JSON.parse(text) as number;
        const column = builder.finish().columns.get('x')!;
        if (!Number.isFinite(parsed))
          expect(column.kind).toBe('string'); // all-null
        else if (column.kind === 'long' || column.kind === 'real')
          expect(Object.is(column.values[0], parsed)).toBe(true);
        else throw new Error(`x is ${column.kind}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('leaves a body that is not valid UTF-8 to the general path', () => {
    const body = Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xff]), Buffer.from('y"}\n{"a":"z"}')]);
    const options = { contentType: 'application/x-ndjson', nowMs: NOW };
    const batch = parseIngestBatch(body, options).batch!;
    const a = batch.columns.get('a')!;
    expect(a.kind === 'string' && a.utf8).toBeUndefined();
    expect(a.kind === 'string' && a.dict).toEqual(
      parseIngestBody(body, options).events.map((e) => e.fields.a),
    );
  });
});
