import { spansToEvents } from './otlp-spans-to-events';
import { idOf, nanosOf, rfc3339OfNanos } from './otlp-values';

describe('OTLP values', () => {
  it('reads ids from protobuf bytes and from JSON hex; all-zero ids are no id', () => {
    expect(idOf(Uint8Array.from([0xab, 0x01]))).toBe('ab01');
    expect(idOf('AB01')).toBe('ab01');
    expect(idOf(new Uint8Array(8))).toBe('');
    expect(idOf(undefined)).toBe('');
  });

  it('keeps all nine fraction digits of a nanosecond time', () => {
    expect(rfc3339OfNanos(nanosOf('1700000000123456789')!)).toBe('2023-11-14T22:13:20.123456789Z');
    expect(nanosOf('0')).toBeNull();
    expect(nanosOf('soon')).toBeNull();
  });
});

describe('spansToEvents', () => {
  const span = {
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: 'eee19b7ec3c1b174',
    parentSpanId: '',
    name: 'GET /',
    kind: 2,
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000250000000',
    attributes: [
      { key: 'http.route', value: { stringValue: '/' } },
      { key: 'retries', value: { intValue: '2' } },
      { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { boolValue: true }] } } },
      { key: 'ctx', value: { kvlistValue: { values: [{ key: 'k', value: { doubleValue: 1.5 } }] } } },
    ],
    status: { code: 2, message: 'boom' },
    events: [{ timeUnixNano: '1700000000100000000', name: 'retry' }],
  };
  const request = {
    resourceSpans: [
      {
        resource: {
          attributes: [
            { key: 'service.name', value: { stringValue: 'api' } },
            { key: 'host.name', value: { stringValue: 'h1' } },
          ],
        },
        scopeSpans: [{ scope: { name: 'lib', version: '1' }, spans: [span, { ...span, traceId: '' }] }],
      },
    ],
  };

  it('lays a span out as Axiom does and rejects spans without ids', () => {
    const { events, rejected, errors } = spansToEvents(request);
    expect(rejected).toBe(1);
    expect(errors).toEqual(['span without a trace_id or span_id']);
    expect(JSON.parse(JSON.stringify(events[0]))).toEqual({
      _time: '2023-11-14T22:13:20.000000000Z',
      trace_id: '5b8efff798038103d269b633813fc60c',
      span_id: 'eee19b7ec3c1b174',
      parent_span_id: null,
      name: 'GET /',
      kind: 'server',
      duration: 250_000_000,
      error: true,
      'status.code': 'ERROR',
      'status.message': 'boom',
      'service.name': 'api',
      resource: { 'host.name': 'h1' },
      scope: { name: 'lib', version: '1' },
      // Semantic conventions stay attributes.<key>; the others go to the map attributes.custom.
      attributes: { 'http.route': '/' },
      'attributes.custom': { retries: 2, tags: ['a', true], ctx: { k: 1.5 } },
      events: [{ name: 'retry', timestamp: '2023-11-14T22:13:20.100000000Z' }],
    });
  });
});

describe('OTLP/JSON from encoders that follow the plain proto3 mapping', () => {
  it('reads base64 ids and enum names', () => {
    const traceId = Buffer.from('5b8efff798038103d269b633813fc60c', 'hex').toString('base64');
    const { events } = spansToEvents({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: Buffer.from('eee19b7ec3c1b174', 'hex').toString('base64'),
                  kind: 'SPAN_KIND_CLIENT',
                  status: { code: 'STATUS_CODE_OK' },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(events[0]).toMatchObject({
      trace_id: '5b8efff798038103d269b633813fc60c',
      span_id: 'eee19b7ec3c1b174',
      kind: 'client',
      'status.code': 'OK',
      error: false,
    });
  });
});
