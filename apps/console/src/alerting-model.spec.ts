import {
  describeCondition,
  describeNotifier,
  emptyMonitorForm,
  monitorBody,
  monitorFormOf,
  notifierBody,
} from './alerting-model';

describe('monitor bodies', () => {
  it('sends operator and threshold for a threshold monitor only', () => {
    const form = { ...emptyMonitorForm(), name: ' 5xx ', aplQuery: 'q', threshold: '2.5' };
    expect(monitorBody(form)).toEqual({
      name: '5xx',
      type: 'Threshold',
      aplQuery: 'q',
      intervalMinutes: 5,
      rangeMinutes: 5,
      notifierIds: [],
      disabled: false,
      operator: 'Above',
      threshold: 2.5,
    });
    const match = monitorBody({ ...form, type: 'MatchEvent' });
    expect(match).not.toHaveProperty('operator');
    expect(match).not.toHaveProperty('threshold');
  });

  it('sends comparison days and tolerance for anomaly detection', () => {
    const body = monitorBody({
      ...emptyMonitorForm(),
      name: 'a',
      aplQuery: 'q',
      type: 'AnomalyDetection',
      operator: 'AboveOrBelow',
      compareDays: '7',
      tolerance: '25',
      notifierIds: ['n1'],
    });
    expect(body).toMatchObject({
      operator: 'AboveOrBelow',
      compareDays: 7,
      tolerance: 25,
      notifierIds: ['n1'],
    });
    expect(body).not.toHaveProperty('threshold');
  });

  it('refuses numbers that do not parse', () => {
    expect(() => monitorBody({ ...emptyMonitorForm(), intervalMinutes: '1.5' })).toThrow(/whole number/);
    expect(() => monitorBody({ ...emptyMonitorForm(), threshold: '' })).toThrow(/Threshold/);
  });

  it('round-trips a stored monitor through the form', () => {
    const stored = {
      id: 'm1',
      name: 'spikes',
      type: 'AnomalyDetection',
      aplQuery: 'q',
      operator: 'Above',
      compareDays: 3,
      tolerance: 15,
      intervalMinutes: 10,
      rangeMinutes: 30,
      notifierIds: ['n1', 'n2'],
    };
    expect(monitorBody(monitorFormOf(stored))).toEqual({
      name: 'spikes',
      type: 'AnomalyDetection',
      aplQuery: 'q',
      intervalMinutes: 10,
      rangeMinutes: 30,
      notifierIds: ['n1', 'n2'],
      disabled: false,
      operator: 'Above',
      compareDays: 3,
      tolerance: 15,
    });
    expect(describeCondition(stored)).toBe('Above ±15% vs 3 d ago');
    expect(describeCondition({ id: 'x', name: 'x', type: 'MatchEvent' })).toBe('any matching event');
  });
});

describe('notifier bodies', () => {
  it('puts one channel in properties', () => {
    expect(notifierBody('ops', 'slack', ' https://hooks.example/x ')).toEqual({
      name: 'ops',
      properties: { slack: { slackUrl: 'https://hooks.example/x' } },
    });
    expect(notifierBody('mail', 'email', 'a@x.io, b@x.io;c@x.io')).toEqual({
      name: 'mail',
      properties: { email: { emails: ['a@x.io', 'b@x.io', 'c@x.io'] } },
    });
  });

  it('requires the target and describes the channel without secrets', () => {
    expect(() => notifierBody('x', 'webhook', '  ')).toThrow(/Webhook URL/);
    expect(describeNotifier({ id: '1', name: 'w', properties: { webhook: { url: 'https://a/b' } } })).toBe(
      'Webhook · https://a/b',
    );
    expect(
      describeNotifier({ id: '2', name: 'p', properties: { pagerduty: { routingKey: 'secret' } } }),
    ).toBe('PagerDuty');
  });
});
