import { decodeOtlpJson, decodeOtlpProtobuf, encodeOtlpResponse } from './otlp-codec';
import { otlpToSeries } from './otlp-to-series';

const T = 1_746_057_600;
const ns = (sec: number, sub = 0) => String(BigInt(sec) * 1_000_000_000n + BigInt(sub));
const kv = (key: string, value: object) => ({ key, value });

function request(metrics: object[], resource: object[] = [], scope: object[] = []) {
  return {
    resourceMetrics: [
      { resource: { attributes: resource }, scopeMetrics: [{ scope: { attributes: scope }, metrics }] },
    ],
  };
}

describe('otlpToSeries', () => {
  it('merges resource, scope and point attributes into typed tags (point wins) and truncates times', () => {
    const out = otlpToSeries(
      request(
        [
          {
            name: 'g',
            unit: 'By',
            gauge: {
              dataPoints: [
                {
                  timeUnixNano: ns(T, 999_999_999),
                  asDouble: 1.5,
                  attributes: [kv('host', { stringValue: 'point' })],
                },
              ],
            },
          },
        ],
        [
          kv('host', { stringValue: 'res' }),
          kv('cores', { intValue: '8' }),
          kv('blob', { bytesValue: 'AAE=' }),
        ],
        [kv('canary', { boolValue: true }), kv('ratio', { doubleValue: 0.5 })],
      ),
    );
    expect(out).toEqual({
      accepted: 1,
      rejected: 0,
      errors: [],
      series: [
        {
          metric: 'g',
          tags: {
            host: { type: 'string', value: 'point' },
            cores: { type: 'int', value: 8 },
            canary: { type: 'bool', value: true },
            ratio: { type: 'float', value: 0.5 },
          },
          meta: { type: 'Gauge', temporality: null, unit: 'By' },
          kind: 'scalar',
          times: [T],
          values: [1.5],
        },
      ],
    });
  });

  it('maps sums by monotonicity and temporality, ints and enum names included', () => {
    const out = otlpToSeries(
      request([
        {
          name: 'mono',
          sum: {
            isMonotonic: true,
            aggregationTemporality: 2,
            dataPoints: [{ timeUnixNano: ns(T), asInt: '9007199254740993' }],
          },
        },
        {
          name: 'updown',
          sum: {
            aggregationTemporality: 'AGGREGATION_TEMPORALITY_DELTA',
            dataPoints: [{ timeUnixNano: ns(T), asInt: -3 }],
          },
        },
      ]),
    );
    expect(
      out.series.map((s) => [s.metric, s.meta.type, s.meta.temporality, s.kind === 'scalar' && s.values[0]]),
    ).toEqual([
      ['mono', 'CounterMonotonic', 'Cumulative', 9007199254740992],
      ['updown', 'CounterNonMonotonic', 'Delta', -3],
    ]);
  });

  it('keeps histogram buckets, absent sum/min/max, and rejects mismatched bucket counts', () => {
    const out = otlpToSeries(
      request([
        {
          name: 'h',
          histogram: {
            aggregationTemporality: 1,
            dataPoints: [
              {
                timeUnixNano: ns(T),
                count: '3',
                bucketCounts: ['1', '2', '0'],
                explicitBounds: [0.1, 1],
                min: 0.05,
              },
              { timeUnixNano: ns(T + 10), count: '1', bucketCounts: ['1'], explicitBounds: [0.1, 1] },
            ],
          },
        },
      ]),
    );
    expect(out.rejected).toBe(1);
    expect(out.series).toEqual([
      {
        metric: 'h',
        tags: {},
        meta: { type: 'Histogram', temporality: 'Delta', unit: null },
        kind: 'histogram',
        points: [{ time: T, count: 3, sum: NaN, min: 0.05, max: null, bounds: [0.1, 1], counts: [1, 2, 0] }],
      },
    ]);
  });

  it('turns a summary into count, sum and per-quantile series', () => {
    const out = otlpToSeries(
      request([
        {
          name: 's',
          summary: {
            dataPoints: [
              { timeUnixNano: ns(T), count: '4', sum: 10, quantileValues: [{ quantile: 0.5, value: 2 }] },
            ],
          },
        },
      ]),
    );
    expect(out.accepted).toBe(1);
    expect(out.series.map((s) => [s.tags, s.kind === 'scalar' && s.values])).toEqual([
      [{ 'axiom.histogram': { type: 'string', value: 'count' } }, [4]],
      [{ 'axiom.histogram': { type: 'string', value: 'sum' } }, [10]],
      [{ quantile: { type: 'float', value: 0.5 } }, [2]],
    ]);
  });

  it('counts rejected points with their reasons and skips points flagged as having no value', () => {
    const out = otlpToSeries(
      request([
        { name: 'n'.repeat(257), gauge: { dataPoints: [{ timeUnixNano: ns(T), asDouble: 1 }] } },
        {
          name: 'e',
          exponentialHistogram: { dataPoints: [{ timeUnixNano: ns(T) }, { timeUnixNano: ns(T) }] },
        },
        {
          name: 'k',
          gauge: {
            dataPoints: [
              { timeUnixNano: ns(T), asDouble: 1, attributes: [kv('k'.repeat(257), { stringValue: 'v' })] },
            ],
          },
        },
        { name: 'nt', gauge: { dataPoints: [{ asDouble: 1 }] } },
        { name: 'nv', gauge: { dataPoints: [{ timeUnixNano: ns(T), flags: 1 }] } },
      ]),
    );
    expect(out.rejected).toBe(5);
    expect(out.accepted).toBe(0);
    expect(out.series).toEqual([]);
    expect(out.errors).toEqual([
      'metric name longer than 256 bytes',
      'exponential histograms are not supported (metric "e")',
      'attribute key longer than 256 bytes',
      'data point without time_unix_nano',
    ]);
  });
});

describe('OTLP codec', () => {
  it('reports malformed protobuf and JSON as invalid', () => {
    expect(() => decodeOtlpProtobuf(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(
      /not a valid OTLP/,
    );
    expect(() => decodeOtlpJson(Buffer.from('{'))).toThrow(/not valid JSON/);
    expect(() => decodeOtlpJson(Buffer.from('{"resourceMetrics": 3}'))).toThrow(/must be an array/);
  });

  it('answers partial success in the request encoding', () => {
    expect(encodeOtlpResponse({ rejectedDataPoints: 2, errorMessage: 'x' }, 'json')).toEqual({
      partialSuccess: { rejectedDataPoints: '2', errorMessage: 'x' },
    });
    expect((encodeOtlpResponse(null, 'protobuf') as Buffer).length).toBe(0);
    // field 1 (message) { field 1 varint 2, field 2 string "x" }
    expect([
      ...(encodeOtlpResponse({ rejectedDataPoints: 2, errorMessage: 'x' }, 'protobuf') as Buffer),
    ]).toEqual([0x0a, 0x05, 0x08, 0x02, 0x12, 0x01, 0x78]);
  });
});
