import { logsToEvents } from './otlp-logs-to-events';

describe('logsToEvents', () => {
  const request = (records: object[]) => ({
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'api' } }] },
        scopeLogs: [{ scope: { name: 'app' }, logRecords: records }],
      },
    ],
  });

  it('lays a log record out as Axiom does', () => {
    const { events, rejected } = logsToEvents(
      request([
        {
          timeUnixNano: '1700000000000000001',
          severityNumber: 17,
          severityText: 'ERROR',
          body: { stringValue: 'boom' },
          traceId: '5b8efff798038103d269b633813fc60c',
          spanId: 'eee19b7ec3c1b174',
          attributes: [{ key: 'user.id', value: { intValue: '7' } }],
        },
      ]),
    );
    expect(rejected).toBe(0);
    expect(JSON.parse(JSON.stringify(events[0]))).toEqual({
      _time: '2023-11-14T22:13:20.000000001Z',
      severity_text: 'ERROR',
      severity_number: 17,
      body: 'boom',
      trace_id: '5b8efff798038103d269b633813fc60c',
      span_id: 'eee19b7ec3c1b174',
      'service.name': 'api',
      scope: { name: 'app' },
      attributes: { 'user.id': 7 },
    });
  });

  it('falls back to the observed time, reads severity names and keeps structured bodies', () => {
    const { events } = logsToEvents(
      request([
        {
          observedTimeUnixNano: '1700000000000000000',
          severityNumber: 'SEVERITY_NUMBER_WARN2',
          body: { kvlistValue: { values: [{ key: 'msg', value: { stringValue: 'hi' } }] } },
        },
      ]),
    );
    expect(JSON.parse(JSON.stringify(events[0]))).toMatchObject({
      _time: '2023-11-14T22:13:20.000000000Z',
      severity_number: 14,
      body: { msg: 'hi' },
    });
    expect(events[0]).not.toHaveProperty('trace_id');
  });
});
