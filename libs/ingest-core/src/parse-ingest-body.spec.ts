import { QuarryError } from '@quarry/common';
import {
  parseEventLabels,
  parseIngestBatch,
  parseIngestBody,
  type IngestParseOptions,
} from './parse-ingest-body';
import { TOO_LONG_STRING } from './normalize-event';

const NOW = Date.UTC(2024, 4, 1, 12);
const T1 = Date.UTC(2024, 4, 1, 0, 3, 16, 926);

function parse(body: string, options: Partial<IngestParseOptions> = {}) {
  return parseIngestBody(Buffer.from(body), { contentType: 'application/json', nowMs: NOW, ...options });
}

function thrown(fn: () => unknown): QuarryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error('expected a throw');
}

/** Plain copy of a null-prototype field map, for readable equality. */
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('parseIngestBody: formats', () => {
  it('parses a JSON array of objects', () => {
    const { events, failures } = parse('[{"_time":"2024-05-01T00:03:16.926Z","a":1},{"b":"x"}]');
    expect(failures).toEqual([]);
    expect(events).toHaveLength(2);
    expect(events[0].time).toBe(T1);
    expect(plain(events[0].fields)).toEqual({ a: 1 });
    expect(events[1].time).toBe(NOW);
    expect(plain(events[1].fields)).toEqual({ b: 'x' });
  });

  it.each([
    'application/x-ndjson',
    'application/nd-json',
    'application/json',
    'application/x-ndjson; charset=utf-8',
  ])('parses NDJSON sent as %s', (contentType) => {
    const { events, failures } = parse('{"a":1}\n\n  \r\n{"a":2}\r\n{"a":3}', { contentType });
    expect(failures).toEqual([]);
    expect(events.map((e) => e.fields.a)).toEqual([1, 2, 3]);
  });

  it('treats one pretty-printed object sent as application/json as one event', () => {
    const { events } = parse('{\n  "a": 1,\n  "b": {"c": 2}\n}\n');
    expect(events).toHaveLength(1);
    expect(plain(events[0].fields)).toEqual({ a: 1, 'b.c': 2 });
  });

  it('sniffs JSON when the Content-Type is missing, and refuses other bodies', () => {
    expect(parse('[{"a":1}]', { contentType: undefined }).events).toHaveLength(1);
    expect(parse('{"a":1}\n{"a":2}', { contentType: '' }).events).toHaveLength(2);
    expect(thrown(() => parse('a,b\n1,2', { contentType: undefined })).message).toMatch(
      /send text\/csv for CSV/,
    );
  });

  it('refuses unsupported content types and charsets with 415', () => {
    expect(thrown(() => parse('x', { contentType: 'text/plain' })).kind).toBe('unsupported_media_type');
    expect(thrown(() => parse('[]', { contentType: 'application/json; charset=latin1' })).kind).toBe(
      'unsupported_media_type',
    );
  });

  it('accepts an empty body and an empty array as zero events', () => {
    expect(parse('')).toEqual({ events: [], failures: [] });
    expect(parse('  \n')).toEqual({ events: [], failures: [] });
    expect(parse('[]')).toEqual({ events: [], failures: [] });
    expect(parse('', { contentType: 'text/csv' })).toEqual({ events: [], failures: [] });
  });

  it('strips a UTF-8 BOM', () => {
    expect(parse('\ufeff[{"a":1}]').events).toHaveLength(1);
  });
});

describe('parseIngestBody: CSV', () => {
  it('reads the header line, keeps values as strings and does not trim them', () => {
    const { events, failures } = parse('foo,bar,_time\n1,x y,2024-05-01T00:03:16.926Z\n\t2,,\n', {
      contentType: 'text/csv',
    });
    expect(failures).toEqual([]);
    expect(events).toHaveLength(2);
    expect(events[0].time).toBe(T1);
    expect(plain(events[0].fields)).toEqual({ foo: '1', bar: 'x y' });
    // Empty cells are omitted (null), and the leading tab is kept.
    expect(plain(events[1].fields)).toEqual({ foo: '\t2' });
    expect(events[1].time).toBe(NOW);
  });

  it('takes field names from X-Axiom-CSV-Fields; an empty header means "first line is the header"', () => {
    const headerless = parse('1,2\n3,4', { contentType: 'text/csv', csvFields: 'a, b' });
    expect(headerless.events.map((e) => plain(e.fields))).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
    ]);
    // The JS client's test body: `foo\nbar\nbaz` is a header and 2 events.
    const withHeader = parse('foo\nbar\nbaz', { contentType: 'text/csv', csvFields: '' });
    expect(withHeader.events.map((e) => plain(e.fields))).toEqual([{ foo: 'bar' }, { foo: 'baz' }]);
  });

  it('honours the delimiter, quotes and CRLF', () => {
    const { events } = parse('a;b\r\n"x;1";"say ""hi"""\r\n', { contentType: 'text/csv', csvDelimiter: ';' });
    expect(plain(events[0].fields)).toEqual({ a: 'x;1', b: 'say "hi"' });
  });

  it('fails a row with more values than the header names, keeps shorter rows', () => {
    const { events, failures } = parse('a,b\n1,2,3\n4\n', { contentType: 'text/csv' });
    expect(failures).toEqual([{ index: 0, error: 'line 2: has 3 values but the header names 2 fields' }]);
    expect(plain(events[0].fields)).toEqual({ a: '4' });
  });

  it('refuses malformed CSV as invalid', () => {
    const err = thrown(() => parse('a,b\n"unterminated,1\n', { contentType: 'text/csv' }));
    expect(err.kind).toBe('invalid');
    expect(err.message).toBe('invalid CSV on line 2: a quoted value is never closed');
  });
});

describe('parseIngestBody: event semantics', () => {
  it('flattens nested objects to dotted names, keeps arrays, respects map fields', () => {
    const { events } = parse(
      '{"geo":{"city":"X","pos":{"lat":1}},"tags":["a",{"k":1}],"attrs":{"x":{"y":1}},"empty":{}}',
      { mapFields: ['attrs'] },
    );
    expect(plain(events[0].fields)).toEqual({
      'geo.city': 'X',
      'geo.pos.lat': 1,
      tags: ['a', { k: 1 }],
      attrs: { x: { y: 1 } },
    });
  });

  it('renames reserved names to _user_<rest>', () => {
    const { events } = parse('{"_sysTime":1,"_rowID":2,"_blockInfo":3,"_cursor":4,"_source":5,"_other":6}');
    expect(plain(events[0].fields)).toEqual({
      _user_sysTime: 1,
      _user_rowID: 2,
      _user_blockInfo: 3,
      _user_cursor: 4,
      _user_source: 5,
      _other: 6,
    });
  });

  it('uses timestamp-field and timestamp-format, and removes the time field', () => {
    const { events, failures } = parse(
      '{"ts":"01/May/2024:02:03:16 +0200","a":1}\n{"ts":"2024-05-01T00:03:16.926Z"}\n{"a":2}',
      { timestampField: 'ts', timestampFormat: '02/Jan/2006:15:04:05 -0700' },
    );
    expect(events[0].time).toBe(Date.UTC(2024, 4, 1, 0, 3, 16));
    expect(plain(events[0].fields)).toEqual({ a: 1 });
    expect(failures).toEqual([
      {
        index: 1,
        error:
          'line 2: field "ts": cannot parse timestamp "2024-05-01T00:03:16.926Z" with format "02/Jan/2006:15:04:05 -0700"',
      },
    ]);
    expect(events[1].time).toBe(NOW);
  });

  it('reads a dotted timestamp field and falls back to _time when the custom field is absent', () => {
    const { events } = parse('{"meta":{"ts":1714521796}}\n{"_time":"2024-05-01T00:03:16.926Z","x":1}', {
      timestampField: 'meta.ts',
    });
    expect(events[0].time).toBe(1714521796000);
    expect(plain(events[0].fields)).toEqual({});
    expect(events[1].time).toBe(T1);
    expect(plain(events[1].fields)).toEqual({ x: 1 });
  });

  it('reads epoch numbers as _time', () => {
    const { events } = parse(
      '[{"_time":1714521796},{"_time":1714521796926},{"_time":1714521796926123},{"_time":1714521796926123456}]',
    );
    expect(events.map((e) => e.time)).toEqual([
      1714521796000, 1714521796926, 1714521796926.123, 1714521796926.124,
    ]); // ns epochs exceed float64 precision
  });

  it('gives a name that flattening repeats its first position and last value, in both columns and maps', () => {
    const body =
      '{"a.b":1,"x":0,"a":{"b":2}}\n{"a":{"b":3},"x":0,"a.b":4}\n{"_sysTime":5,"_user_sysTime":6}\n{"a":{"b.c":7,"b":{"c":8}}}';
    const { events } = parse(body, { contentType: 'application/x-ndjson' });
    expect(events.map((e) => Object.entries(e.fields))).toEqual([
      [
        ['a.b', 2],
        ['x', 0],
      ],
      [
        ['a.b', 4],
        ['x', 0],
      ],
      [['_user_sysTime', 6]],
      [['a.b.c', 8]],
    ]);
    const { batch } = parseIngestBatch(Buffer.from(body), {
      contentType: 'application/x-ndjson',
      nowMs: NOW,
    });
    expect([...batch!.columns.keys()]).toEqual(['_time', '_sysTime', 'a.b', 'x', '_user_sysTime', 'a.b.c']);
    expect(batch!.columns.get('a.b')).toMatchObject({
      kind: 'long',
      values: Float64Array.from([2, 4, 0, 0]),
    });
  });

  it('unwraps the grouped form (time, data, labels)', () => {
    const { events } = parse(
      '[{"time":"2024-05-01T00:03:16.926Z","data":{"a":{"b":1}},"labels":{"env":"prod"}},{"data":{"c":2}},{"data":3,"time":1}]',
    );
    expect(events[0].time).toBe(T1);
    expect(plain(events[0].fields)).toEqual({ 'a.b': 1, env: 'prod' });
    expect(events[1].time).toBe(NOW);
    expect(plain(events[1].fields)).toEqual({ c: 2 });
    // `data` not an object: a plain event with fields `data` and `time`.
    expect(plain(events[2].fields)).toEqual({ data: 3, time: 1 });
  });

  it('merges labels into every event (labels win on a clash)', () => {
    const labels = parseEventLabels('{"region":"eu-west-1","k8s":{"ns":"a"},"a":"label"}');
    const { events } = parse('{"a":1}\n{"b":2}', { labels });
    expect(plain(events[0].fields)).toEqual({ a: 'label', region: 'eu-west-1', 'k8s.ns': 'a' });
    expect(plain(events[1].fields)).toEqual({ b: 2, a: 'label', region: 'eu-west-1', 'k8s.ns': 'a' });
  });

  it('parses the labels header strictly', () => {
    expect(parseEventLabels(undefined)).toBeNull();
    expect(parseEventLabels('')).toBeNull();
    expect(thrown(() => parseEventLabels('{bad')).message).toMatch(/X-Axiom-Event-Labels is not valid JSON/);
    expect(thrown(() => parseEventLabels('[1]')).message).toMatch(/must be a JSON object/);
  });

  it('stores NaN-like numbers (1e400) as null', () => {
    const { events } = parse('{"big":1e400,"neg":-1e400,"arr":[1e999]}');
    expect(plain(events[0].fields)).toEqual({ big: null, neg: null, arr: [null] });
  });
});

describe('parseIngestBody: failures and limits', () => {
  it('fails bad NDJSON lines and non-objects, keeping the other lines', () => {
    const { events, failures } = parse('{"a":1}\n{"a":\n[1,2]\n"str"\n{"a":2}', {
      contentType: 'application/x-ndjson',
    });
    expect(events).toHaveLength(2);
    expect(failures).toHaveLength(3);
    expect(failures[0].index).toBe(1);
    expect(failures[0].error).toMatch(/^line 2: invalid JSON: /);
    expect(failures[1]).toEqual({ index: 2, error: 'line 3: event must be a JSON object' });
    expect(failures[2]).toEqual({ index: 3, error: 'line 4: event must be a JSON object' });
  });

  it('fails non-object array elements', () => {
    const { events, failures } = parse('[{"a":1}, 2, null]');
    expect(events).toHaveLength(1);
    expect(failures).toEqual([
      { index: 1, error: 'event 2: event must be a JSON object' },
      { index: 2, error: 'event 3: event must be a JSON object' },
    ]);
  });

  it('refuses a malformed JSON array as a whole, saying where', () => {
    const err = thrown(() => parse('[\n{"a":1},\n{"a": tru}\n]'));
    expect(err.kind).toBe('invalid');
    expect(err.message).toBe('invalid JSON at byte 20 (line 3, column 10): unexpected "}\\n]"');
    const err2 = thrown(() => parse('[{"é":1},\n{"a":1'));
    expect(err2.message).toBe('invalid JSON at byte 17 (line 2, column 7): unexpected end of input');
  });

  it('reads a JSON array from its bytes like NDJSON lines, pretty-printed or not', () => {
    const body =
      '[\n  {"_time": "2024-05-01T00:03:16.926Z", "m": "GET", "n": 1},\n  {"m": "PUT", "n": 2.5, "o": {"k": "v"}},\n  7\n]\n';
    const { batch, failures } = parseIngestBatch(Buffer.from(body), {
      contentType: 'application/json',
      nowMs: NOW,
    });
    expect(failures).toEqual([{ index: 2, error: 'event 3: event must be a JSON object' }]);
    const m = batch!.columns.get('m')!;
    // The flat reader's mark: string values kept as the body's UTF-8 bytes.
    expect(m.kind === 'string' && m.utf8 !== undefined).toBe(true);
    expect(m.kind === 'string' && [...m.codes].map((c) => m.dict[c])).toEqual(['GET', 'PUT']);
    expect(batch!.columns.get('o.k')!.kind).toBe('string');
    const time = batch!.columns.get('_time')!;
    expect(time.kind === 'datetime' && [...time.values]).toEqual([T1, NOW]);
  });

  it('refuses a JSON array whose last element is not JSON, though the elements before it were read', () => {
    const options = { contentType: 'application/json', nowMs: NOW };
    const err = thrown(() => parseIngestBatch(Buffer.from('[{"a":1},{"a":2},{"a":[1,}]'), options));
    expect(err.message).toMatch(/^invalid JSON at byte 25 \(line 1, column 26\): unexpected "}]"/);
    expect(thrown(() => parseIngestBatch(Buffer.from('[{"a":1} {"a":2}]'), options)).message).toMatch(
      /^invalid JSON at byte 9 /,
    );
  });

  it('refuses a body in which no line is JSON', () => {
    const err = thrown(() => parse('hello\nworld', { contentType: 'application/x-ndjson' }));
    expect(err.message).toMatch(/no line is valid JSON \(line 1: invalid JSON/);
    expect(thrown(() => parse('"just a string"')).kind).toBe('invalid');
    expect(thrown(() => parse('[1]', { contentType: 'application/x-ndjson' })).message).toMatch(
      /application\/json/,
    );
  });

  it('fails events with an over-long field name or too many fields, naming the field', () => {
    const long = 'n'.repeat(201);
    const many = Object.fromEntries(Array.from({ length: 1025 }, (_, i) => [`f${i}`, i]));
    const ok = Object.fromEntries(Array.from({ length: 1024 }, (_, i) => [`f${i}`, i]));
    const body = [{ [long]: 1 }, many, ok, { ['é'.repeat(100)]: 1, ['é'.repeat(101)]: 2 }]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const { events, failures } = parse(body);
    expect(events).toHaveLength(1);
    expect(Object.keys(events[0].fields)).toHaveLength(1024);
    expect(failures.map((f) => f.index)).toEqual([0, 1, 3]);
    expect(failures[0].error).toMatch(/^line 1: field "n{64}…": name is 201 bytes; the limit is 200$/);
    expect(failures[1].error).toMatch(/^line 2: event has 1025 fields; the limit is 1024$/);
    expect(failures[2].error).toMatch(/name is 202 bytes/);
  });

  it('counts labels toward the field limit', () => {
    const { failures } = parse('{"a":1,"b":2}', { labels: { c: 1 }, limits: { maxFieldsPerEvent: 2 } });
    expect(failures[0].error).toMatch(/event has 3 fields; the limit is 2/);
  });

  it('replaces strings over 1 MB, in fields and inside arrays', () => {
    const big = 'x'.repeat(1_000_001);
    const { events } = parse(JSON.stringify({ s: big, ok: 'x'.repeat(1_000_000), arr: [big] }));
    expect(events[0].fields.s).toBe(TOO_LONG_STRING);
    expect((events[0].fields.ok as string).length).toBe(1_000_000);
    expect(events[0].fields.arr).toEqual([TOO_LONG_STRING]);
  });

  it('refuses more than maxEvents events with a clear 400', () => {
    const body = Array.from({ length: 10_001 }, () => '{"a":1}').join('\n');
    const err = thrown(() => parse(body));
    expect(err.kind).toBe('invalid');
    expect(err.message).toBe('request has 10001 events; the limit is 10000 per request, split the batch');
    expect(parse(Array.from({ length: 10_000 }, () => '{"a":1}').join('\n')).events).toHaveLength(10_000);
    expect(thrown(() => parse('[{},{},{}]', { limits: { maxEvents: 2 } })).kind).toBe('invalid');
    expect(
      thrown(() => parse('a\n1\n2\n3', { contentType: 'text/csv', limits: { maxEvents: 2 } })).kind,
    ).toBe('invalid');
  });

  it('turns values nested deeper than 100 into null', () => {
    const deepArray = '['.repeat(150) + '1' + ']'.repeat(150);
    const { events } = parse(`{"a":${deepArray},"o":${'{"k":'.repeat(150)}1${'}'.repeat(150)}}`, {
      limits: { maxFieldNameBytes: 10_000 },
    });
    let v: unknown = events[0].fields.a;
    let depth = 1;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect(v).toBeNull();
    expect(depth).toBe(101);
    const names = Object.keys(events[0].fields).filter((n) => n.startsWith('o'));
    expect(names).toHaveLength(1);
    expect(names[0].split('.')).toHaveLength(100);
    expect(events[0].fields[names[0]]).toBeNull();
  });

  it('refuses depth 10,000 without overflowing the stack', () => {
    for (const body of [
      `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
      `[${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}]`,
    ]) {
      const err = thrown(() => parse(body, { limits: { maxFieldNameBytes: 1e9 } }));
      expect(err.kind).toBe('invalid');
      expect(err.message).toMatch(/1000 levels deep/);
    }
  });

  it('never pollutes Object.prototype', () => {
    const body = [
      '{"__proto__":{"polluted":"yes"}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"a":[{"__proto__":{"polluted":"yes"}}]}',
      '{"m":{"__proto__":{"polluted":"yes"}}}',
    ].join('\n');
    const labels = parseEventLabels('{"__proto__":{"polluted":"yes"}}');
    const { events } = parse(body, { mapFields: ['m'], labels });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(events[0].fields['__proto__.polluted']).toBe('yes');
    expect(events[1].fields['constructor.prototype.polluted']).toBe('yes');
    const inArray = (events[2].fields.a as Record<string, unknown>[])[0];
    expect(Object.getPrototypeOf(inArray)).toBeNull();
    expect(Object.keys(inArray)).toEqual(['__proto__']);
    const csv = parse('__proto__,constructor\n1,2', { contentType: 'text/csv' });
    expect(csv.events[0].fields.__proto__).toBe('1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('takes the time from flattened names (last occurrence wins) and keeps neither time name as a field', () => {
    const body = [
      '{"a":{"b":"2024-05-01T00:00:01Z"},"_time":"2024-05-01T00:00:02Z","c":1}',
      '{"a.b":"2024-05-01T00:00:03Z","a":{"b":"2024-05-01T00:00:04Z"}}',
      '{"_time":"2024-05-01T00:00:05Z","d":true}',
    ].join('\n');
    const { events, failures } = parse(body, { timestampField: 'a.b' });
    expect(failures).toEqual([]);
    expect(events.map((e) => e.time)).toEqual([1, 4, 5].map((s) => Date.UTC(2024, 4, 1, 0, 0, s)));
    expect(events.map((e) => Object.keys(e.fields))).toEqual([['c'], [], ['d']]);
  });

  it('gives field maps no inherited keys (they are fast objects, not Object.create(null), but as safe)', () => {
    const { events } = parse('{"a":1}\n{"toString":"x","constructor":"y","hasOwnProperty":"z"}');
    const [plain, named] = events.map((e) => e.fields);
    for (const key of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf'])
      expect(key in plain).toBe(false);
    let chain: object | null = Object.getPrototypeOf(plain) as object | null;
    while (chain !== null) {
      expect(chain).not.toBe(Object.prototype);
      expect(Object.getOwnPropertyNames(chain)).toEqual([]);
      chain = Object.getPrototypeOf(chain) as object | null;
    }
    expect([named.toString, named.constructor, named.hasOwnProperty]).toEqual(['x', 'y', 'z']);
    const keys: string[] = [];
    for (const k in named) keys.push(k);
    expect(keys).toEqual(['toString', 'constructor', 'hasOwnProperty']);
  });
});

// Events dated before 1970 used to be acknowledged and then returned by no query (the query window starts
// at the epoch); they fail now, each with its reason, and the events around them are ingested.
describe('parseIngestBody: events dated before the Unix epoch', () => {
  const before = [
    '{"_time":"1969-12-31T23:59:59.999Z","n":1}',
    '{"_time":-1,"n":2}',
    '{"_time":"1900-01-01T00:00:00Z","n":3}',
  ];
  const fine = ['{"_time":"1970-01-01T00:00:00Z","n":4}', '{"_time":"2024-05-01T00:03:16.926Z","n":5}'];

  it.each(['application/x-ndjson', 'application/json'])('fails each one (%s)', (contentType) => {
    const body =
      contentType === 'application/json'
        ? `[${[...before, ...fine].join(',')}]`
        : [...before, ...fine].join('\n');
    const { events, failures } = parse(body, { contentType });
    expect(events.map((e) => e.fields.n)).toEqual([4, 5]);
    expect(events.map((e) => e.time)).toEqual([0, T1]);
    expect(failures.map((f) => f.index)).toEqual([0, 1, 2]);
    expect(failures[0].error).toContain('timestamp 1969-12-31T23:59:59.999Z is before 1970-01-01T00:00:00Z');
    // A number this small is epoch seconds.
    expect(failures[1].error).toContain('timestamp 1969-12-31T23:59:59.000Z is before 1970-01-01');
    expect(failures[2].error).toContain('timestamp 1900-01-01T00:00:00.000Z is before 1970-01-01');
  });

  it('fails them on the columnar NDJSON path too', () => {
    const result = parseIngestBatch(Buffer.from([...before, ...fine].join('\n')), {
      contentType: 'application/x-ndjson',
      nowMs: NOW,
    });
    expect(result.failures.map((f) => f.index)).toEqual([0, 1, 2]);
    expect(result.batch?.length).toBe(2);
  });

  it('fails a CSV row and a custom timestamp field the same way', () => {
    const csv = parse('_time,n\n1969-07-20T20:17:40Z,1\n2024-05-01T00:03:16.926Z,2', {
      contentType: 'text/csv',
    });
    expect(csv.events.map((e) => e.fields.n)).toEqual(['2']);
    expect(csv.failures).toHaveLength(1);
    expect(csv.failures[0].error).toContain('1969-07-20T20:17:40.000Z is before 1970-01-01T00:00:00Z');
    const custom = parse('[{"ts":"1960-01-01T00:00:00Z"}]', { timestampField: 'ts' });
    expect(custom.events).toHaveLength(0);
    expect(custom.failures[0].error).toContain('field "ts"');
  });
});
