import fc from 'fast-check';
import { QuarryError } from '@quarry/common';
import { batchFromEvents, type ColumnBatch } from '@quarry/contracts';
import { parseJsonArray } from './json-body';
import { resolveLimits } from './limits';
import { type IngestParseOptions, parseIngestBatch, parseIngestBody } from './parse-ingest-body';

/**
 * The batch with its string dictionaries as strings only: `parseIngestBatch` keeps NDJSON strings as
 * UTF-8 (`StringColumn.utf8`), which holds the same values.
 */
function plainBatch(batch: ColumnBatch): ColumnBatch {
  const columns = new Map(
    [...batch.columns].map(([name, c]) => [
      name,
      c.kind === 'string' ? { kind: 'string' as const, codes: c.codes, dict: c.dict } : c,
    ]),
  );
  return { length: batch.length, columns };
}

const NOW = Date.UTC(2024, 4, 1);

/** `parseIngestBatch` gives the batch of `parseIngestBody`'s events, the same failures, the same error. */
function expectBatchOfEvents(body: Buffer, options: IngestParseOptions): void {
  let expected;
  try {
    expected = parseIngestBody(body, options);
  } catch (err) {
    expect(() => parseIngestBatch(body, options)).toThrow((err as Error).message);
    return;
  }
  const actual = parseIngestBatch(body, options);
  expect(actual.failures).toEqual(expected.failures);
  if (expected.events.length === 0) expect(actual.batch).toBeNull();
  else expect(plainBatch(actual.batch!)).toEqual(batchFromEvents(expected.events, NOW));
}
const CONTENT_TYPES = [
  undefined,
  '',
  'application/json',
  'application/x-ndjson',
  'text/csv',
  'text/plain',
  'application/json; charset=x',
];

function expectOnlyQuarryErrors(run: () => unknown): void {
  try {
    run();
  } catch (err) {
    if (!(err instanceof QuarryError)) throw err;
  }
}

/**
 * JSON object texts with every edge the flat reader must give back: odd keys, escapes, every number form,
 * bad literals, arrays, nesting, whitespace (`ws` adds its own), and some texts that are not JSON at all.
 */
function objectTexts(ws: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c', 'a.b', 'msg', 'n') },
    {
      weight: 2,
      arbitrary: fc.constantFrom('_time', 'ts', '_sysTime', '_source', 'data', 'labels', 'time', 'm'),
    },
    { weight: 1, arbitrary: fc.constantFrom('0', '12', '__proto__', 'é', '', 'k"q', 'x\ny', '😀') },
    { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
  );
  const text = fc.oneof(
    fc.string({ maxLength: 8 }).map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 6 }).map((v) => JSON.stringify(v)),
    fc.constantFrom(
      '"\\ud800"',
      '"\\u00e9\\u0041"',
      '"a\\/b"',
      '"tab\\there"',
      '"raw\ttab"',
      '"2024-05-01T00:00:00Z"',
      '"2024-05-01T00:00:00.123456789Z"',
      '"2024-02-30T00:00:00Z"',
      '" 2024-05-01T00:00:00Z "',
      '"2024-05-01T02:00:00+02:00"',
      '"Mon, 02 Jan 2006 15:04:05 MST"',
      '"1714521600"',
      '"unterminated',
    ),
  );
  const number = fc.oneof(
    fc.double().map((v) => JSON.stringify(v)), // NaN/Infinity become null
    fc.integer().map(String),
    fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
    fc
      .tuple(fc.integer({ min: -99999, max: 99999 }), fc.nat({ max: 10 ** 9 }), fc.nat({ max: 12 }))
      .map(([i, f, zeros]) => `${i}.${'0'.repeat(zeros)}${f}`),
    fc.constantFrom('-0', '0.0', '-0.0', '1e400', '-1e400', '1E2', '1e-7', '2.5E+3', '5e-324'),
    fc.constantFrom('0.1', '1.7976931348623157e308', '9007199254740993', '123456789012345.6'),
    fc.constantFrom('00', '01', '1.', '-', '.5', '+1', '1e', '0x10', 'NaN', 'Infinity'),
  );
  const literal = fc.constantFrom('true', 'false', 'null', 'tru', 'nul', 'falsey', 'True');
  const array = fc.oneof(
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }).map((v) => JSON.stringify(v)),
    fc.constantFrom('[1,[2,[3]]]', '[', '[1}', '[{"a":"]"}]', '["\\"]"]', '[]', '[1,]'),
  );
  const scalar = fc.oneof(text, number, literal, array);
  return fc.letrec<{ obj: string }>((tie) => ({
    obj: fc
      .tuple(
        fc.array(
          fc.tuple(
            key,
            ws,
            ws,
            fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: tie('obj') }),
          ),
          { maxLength: 5 },
        ),
        ws,
        ws,
      )
      .map(
        ([entries, before, after]) =>
          `{${before}${entries.map(([k, a, b, v]) => `${JSON.stringify(k)}${a}:${b}${v}`).join(`,${after}`)}${after}}`,
      ),
  })).obj;
}

/** `JSON.stringify`, but -0 stays -0 (as in the text it was parsed from). */
function jsonText(value: unknown): string {
  if (Object.is(value, -0)) return '-0';
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('parseIngestBody properties', () => {
  it('random bodies never throw anything but QuarryError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
          fc.string({ maxLength: 300 }).map((s) => Buffer.from(s)),
          fc.array(fc.jsonValue(), { maxLength: 5 }).map((v) => Buffer.from(JSON.stringify(v))),
          fc
            .array(fc.jsonValue(), { maxLength: 5 })
            .map((v) => Buffer.from(v.map((x) => JSON.stringify(x)).join('\n'))),
          // Truncated and mutated JSON.
          fc
            .tuple(fc.array(fc.object(), { maxLength: 4 }), fc.nat(), fc.integer({ min: 0, max: 255 }))
            .map(([v, at, byte]) => {
              const b = Buffer.from(JSON.stringify(v));
              if (b.length > 0) b[at % b.length] = byte;
              return b.subarray(0, Math.max(0, b.length - (at % 3)));
            }),
        ),
        fc.constantFrom(...CONTENT_TYPES),
        fc.option(fc.constantFrom('2006-01-02 15:04:05', 'RFC1123', '02/Jan/2006:15:04:05 -0700'), {
          nil: undefined,
        }),
        (body, contentType, timestampFormat) => {
          expectOnlyQuarryErrors(() => parseIngestBody(body, { contentType, timestampFormat, nowMs: NOW }));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('NDJSON: events + failures equals the number of non-empty lines', () => {
    const line = fc.oneof(
      fc.object({ maxDepth: 3 }).map((o) => JSON.stringify(o)),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 20 }).filter((s) => !s.includes('\n')),
      fc.constantFrom('', '  ', '\r', '{"_time":"garbage"}', '{"_time":12}', '{"__proto__":{"x":1}}'),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 30 }),
        fc.constantFrom('application/x-ndjson', 'application/json'),
        (lines, contentType) => {
          const text = lines.join('\n');
          // A body starting with "[" is a JSON array, not NDJSON; so is a single multi-line object under json.
          if (text.trimStart().startsWith('[')) return;
          const nonEmpty = text.split('\n').filter((l) => l.trim() !== '').length;
          let result;
          try {
            result = parseIngestBody(Buffer.from(text), { contentType, nowMs: NOW });
          } catch (err) {
            // Only whole-request errors: nothing parsed at all, or a whole-body JSON value that is not an object.
            expect(err).toBeInstanceOf(QuarryError);
            expect((err as QuarryError).kind).toBe('invalid');
            return;
          }
          if (
            contentType === 'application/json' &&
            nonEmpty > 1 &&
            result.events.length + result.failures.length === 1
          )
            return;
          expect(result.events.length + result.failures.length).toBe(nonEmpty);
          expect(({} as Record<string, unknown>).x).toBeUndefined();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("parseIngestBatch builds exactly the batch of parseIngestBody's events, with the same failures", () => {
    const value = fc.oneof(
      fc.constantFrom('x', 'y', '', 'é'),
      fc.integer({ min: -3, max: 3 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 2 }),
      fc.dictionary(fc.constantFrom('b', 'c.d'), fc.integer(), { maxKeys: 2 }),
    );
    const event = fc.oneof(
      fc.dictionary(
        fc.constantFrom('a', 'b', 'a.b', '_sysTime', '_user_sysTime', '_time', 'ts', '__proto__'),
        value,
        { maxKeys: 6 },
      ),
      fc.record({
        data: fc.dictionary(fc.constantFrom('a', 'b'), value),
        labels: fc.dictionary(fc.constantFrom('a', 'z'), value),
      }),
      fc.constantFrom({ _time: 'garbage' }, { _time: '2024-05-01T00:00:00Z', a: 1 }, 'not an object', 7),
    );
    const line = fc.oneof(
      { weight: 6, arbitrary: event.map((e) => JSON.stringify(e)) },
      { weight: 1, arbitrary: fc.constantFrom('{bad json', '', '  ') },
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 25 }),
        fc.constantFrom('application/x-ndjson', 'application/json'),
        fc.option(fc.constantFrom('ts', 'a.b'), { nil: undefined }),
        fc.option(fc.dictionary(fc.constantFrom('a', 'l.m', 'z'), value, { maxKeys: 2 }), { nil: undefined }),
        (lines, contentType, timestampField, labels) => {
          expectBatchOfEvents(Buffer.from(lines.join('\n')), {
            contentType,
            timestampField,
            labels,
            nowMs: NOW,
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('the flat NDJSON reader gives what the general path gives, on JSON text with every edge it must give back', () => {
    const ws = fc.constantFrom('', '', ' ', '\t', ' \r');
    const object = objectTexts(ws);
    const line = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(ws, object, ws).map(([a, o, b]) => `${a}${o}${b}`) },
      // Truncated or with trailing text.
      {
        weight: 1,
        arbitrary: fc
          .tuple(object, fc.nat(), fc.constantFrom('', 'x', ',', '}', ' {}'))
          .map(([o, cut, tail]) => o.slice(0, o.length - (cut % 3)) + tail),
      },
      { weight: 1, arbitrary: fc.constantFrom('[1]', '"s"', '7', '', '{"a":1}{"b":2}', '{"a":1,}') },
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.option(fc.constantFrom('ts', 'a.b', 'time'), { nil: undefined }),
        fc.option(fc.constantFrom('2006-01-02 15:04:05', 'RFC1123'), { nil: undefined }),
        fc.option(fc.constant(['m']), { nil: undefined }),
        (lines, timestampField, timestampFormat, mapFields) => {
          const contentType = 'application/x-ndjson';
          const options = { contentType, timestampField, timestampFormat, mapFields, nowMs: NOW };
          expectBatchOfEvents(Buffer.from(lines.join('\n')), options);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a JSON array body gives what parsing the whole array gives: its events and failures, or its error', () => {
    // Whitespace between tokens, line feeds included (a pretty-printed array).
    const ws = fc.constantFrom('', '', ' ', '\n', '\n  ', '\r\n\t');
    const element = fc.oneof(
      { weight: 8, arbitrary: objectTexts(ws) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('7', '"s"', 'null', '[]', '[{"a":1}]', 'tru', '{"a":"}"', '"a,b"', '1 2'),
      },
    );
    const array = fc
      .tuple(fc.array(fc.tuple(ws, element, ws), { maxLength: 10 }), ws, ws)
      .map(([items, before, after]) => `${before}[${items.map(([a, e, b]) => a + e + b).join(',')}]${after}`);
    // The array's own syntax broken: a trailing or missing comma, text after it, cut short.
    const broken = fc
      .tuple(array, fc.constantFrom('[', ']', ',]', 'x', '{}', '', ' ,'), fc.nat())
      .map(([text, tail, cut]) => text.slice(0, text.length - (cut % 4)) + tail)
      .filter((text) => text.trimStart().startsWith('['));
    fc.assert(
      fc.property(
        fc.oneof({ weight: 4, arbitrary: array }, { weight: 1, arbitrary: broken }),
        fc.option(fc.constantFrom('ts', 'a.b', 'time'), { nil: undefined }),
        fc.option(fc.dictionary(fc.constantFrom('a', 'z'), fc.integer(), { maxKeys: 1 }), { nil: undefined }),
        (text, timestampField, labels) => {
          const options = { contentType: 'application/json', timestampField, labels, nowMs: NOW };
          // The reference: the whole body parsed at once, its elements then read one per NDJSON line by
          // the general path (which never sees the array), failures named by element.
          let values: unknown;
          try {
            values = JSON.parse(text);
          } catch {
            let error = '';
            try {
              parseJsonArray(text, resolveLimits(undefined));
            } catch (err) {
              error = (err as Error).message;
            }
            expect(error).toMatch(/^invalid JSON/);
            expect(() => parseIngestBatch(Buffer.from(text), options)).toThrow(error);
            expect(() => parseIngestBody(Buffer.from(text), options)).toThrow(error);
            return;
          }
          // An element that is an array fails as any non-object does; as a line it would make the NDJSON
          // body start with "[", which NDJSON refuses as a whole.
          const lines = (values as unknown[]).map((v) => jsonText(Array.isArray(v) ? 'array' : v));
          const ndjson = { ...options, contentType: 'application/x-ndjson' };
          const expected =
            lines.length === 0
              ? { events: [], failures: [] }
              : parseIngestBody(Buffer.from(lines.join('\n')), ndjson);
          const failures = expected.failures.map((f) => ({
            index: f.index,
            error: f.error.replace(/^line (\d+)/, 'event $1'),
          }));
          const actual = parseIngestBatch(Buffer.from(text), options);
          expect(actual.failures).toEqual(failures);
          if (expected.events.length === 0) expect(actual.batch).toBeNull();
          else expect(plainBatch(actual.batch!)).toEqual(batchFromEvents(expected.events, NOW));
          expect(parseIngestBody(Buffer.from(text), options)).toEqual({ events: expected.events, failures });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('CSV rows read from their bytes give what the general path gives, with every edge it must give back', () => {
    const name = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'msg', 'a.b', 'n', 'é') },
      {
        weight: 2,
        arbitrary: fc.constantFrom('_time', 'ts', '', '_sysTime', '_source', '0', '__proto__', 'm', 'data'),
      },
      { weight: 1, arbitrary: fc.constantFrom('x'.repeat(201), 'nul\u0000l') },
    );
    const value = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('GET', '200', '', ' spaced ', 'ünï', '1.5', 'true', 'null') },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '2024-05-01T00:00:00Z',
          '2024-05-01T00:00:00.123456789Z',
          '2024-02-30T00:00:00Z',
          '1714521600',
          '1969-12-31T23:59:59Z',
          '2006-01-02 15:04:05',
          'Mon, 02 Jan 2006 15:04:05 MST',
          'soon',
        ),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom('"quoted, with comma"', '"say ""hi"""', '"line\nbreak"', 'x"y', '"x"y'),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 6 }).filter((v) => !/[\n\r",;\t§]/.test(v)) },
    );
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 1, maxLength: 5 }),
        fc.array(fc.array(value, { maxLength: 6 }), { maxLength: 8 }),
        fc.constantFrom(',', ';', '\t', '§'),
        fc.constantFrom('\n', '\r\n', '\n\n'),
        fc.boolean(),
        fc.option(fc.constantFrom('ts', 'a', '_time'), { nil: undefined }),
        fc.option(fc.constantFrom('2006-01-02 15:04:05', 'RFC1123'), { nil: undefined }),
        fc.option(fc.constant(['m']), { nil: undefined }),
        fc.option(fc.constant({ l: 1 }), { nil: undefined }),
        (names, rows, delimiter, newline, headerLine, timestampField, timestampFormat, mapFields, labels) => {
          const line = (cells: string[]) => cells.join(delimiter);
          const text = [...(headerLine ? [line(names)] : []), ...rows.map(line)].join(newline);
          expectBatchOfEvents(Buffer.from(text), {
            contentType: 'text/csv',
            csvDelimiter: delimiter,
            csvFields: headerLine ? undefined : names.join(','),
            timestampField,
            timestampFormat,
            mapFields,
            labels,
            nowMs: NOW,
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});
