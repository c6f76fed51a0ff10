import fc from 'fast-check';
import { QuarryError } from '@quarry/common';
import { batchFromEvents } from '@quarry/contracts';
import { parseIngestBatch, parseIngestBody } from './parse-ingest-body';

const NOW = Date.UTC(2024, 4, 1);
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
          const body = Buffer.from(lines.join('\n'));
          const options = { contentType, timestampField, labels, nowMs: NOW };
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
          else expect(actual.batch).toEqual(batchFromEvents(expected.events, NOW));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
