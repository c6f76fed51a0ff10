import type { AlertNotification } from './notification';
import { OutboundDelivery, type NotifierConfig } from './notifier-delivery';
import { renderTemplate, type ReceiverEndpoints } from './payloads';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from './testing';
import { urlPolicy } from './url-policy';

const DENY = ['169.254.0.0/16', 'fe80::/10'];

const open: AlertNotification = {
  action: 'Open',
  monitorId: 'mon_1',
  checkId: 'mon_1',
  name: 'errors',
  description: 'too many errors',
  title: '[Triggered] errors',
  body: 'errors: 20 is Above the threshold 10.',
  value: 20,
  groupKeys: [],
  groupValues: [],
  matchedEvent: null,
  queryStartTime: '2024-05-01T11:59:00.000Z',
  queryEndTime: '2024-05-01T12:00:00.000Z',
  timestamp: '2024-05-01T12:00:05.000Z',
};
const closed: AlertNotification = {
  ...open,
  action: 'Closed',
  title: '[Resolved] errors',
  body: 'errors is back to normal.',
};

const notifier = (properties: NotifierConfig['properties']): NotifierConfig => ({
  id: 'ntf_1',
  name: 'n',
  properties,
});

describe('notifier delivery', () => {
  let http: HttpReceiver;
  let smtp: SmtpReceiver;
  let delivery: OutboundDelivery;
  let endpoints: ReceiverEndpoints;

  beforeAll(async () => {
    http = await startHttpReceiver();
    smtp = await startSmtpReceiver();
    endpoints = {
      pagerduty: `${http.url}/pd`,
      opsgenie: `${http.url}/og`,
      opsgenieEu: `${http.url}/og-eu`,
      discordApi: `${http.url}/discord`,
    };
    delivery = new OutboundDelivery({
      policy: urlPolicy([], DENY),
      timeoutMs: 2000,
      attempts: 3,
      backoffMs: 1,
      smtp: {
        // A plain relay that offers no STARTTLS: credentials in clear text only when the URL says so.
        url: `${smtp.url.replace('smtp://', 'smtp://alice:s3cret@')}?starttls=never`,
        from: 'quarry@example.test',
        timeoutMs: 2000,
      },
      endpoints,
    });
  });
  afterAll(async () => {
    await http.close();
    await smtp.close();
  });
  beforeEach(() => {
    http.requests.length = 0;
    smtp.mails.length = 0;
  });

  const deliverOne = async (properties: NotifierConfig['properties'], n = open) => {
    const outcome = await delivery.deliver(notifier(properties), n);
    expect(outcome).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(http.requests).toHaveLength(1);
    return http.requests[0];
  };

  it('webhook: {action, event}', async () => {
    const req = await deliverOne({ webhook: { url: `${http.url}/hook` } });
    expect(req.path).toBe('/hook');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json()).toEqual({
      action: 'Open',
      event: expect.objectContaining({
        monitorID: 'mon_1',
        title: '[Triggered] errors',
        value: 20,
        queryEndTime: open.queryEndTime,
      }),
    });
  });

  it('custom webhook: the rendered template, headers and secret headers', async () => {
    const req = await deliverOne({
      customWebhook: {
        url: `${http.url}/custom`,
        body: '{"alert":"{{.Title}}","action":"{{.Action}}","value":{{json .Value}},"quote":"{{.Body}}"}',
        headers: { 'X-Team': 'ops' },
        secretHeaders: { Authorization: 'Bearer hush' },
      },
    });
    expect(req.headers['x-team']).toBe('ops');
    expect(req.headers.authorization).toBe('Bearer hush');
    expect(req.json()).toEqual({ alert: '[Triggered] errors', action: 'Open', value: 20, quote: open.body });
  });

  it('custom webhook templates stay JSON whatever the alert text holds', () => {
    const text = renderTemplate('{"t":"{{.Title}}"}', { ...open, title: 'a "quoted"\nline' });
    expect(JSON.parse(text)).toEqual({ t: 'a "quoted"\nline' });
  });

  it('slack: text and a mrkdwn section', async () => {
    const req = await deliverOne({ slack: { slackUrl: `${http.url}/slack` } });
    expect(req.json()).toEqual({
      text: `${open.title}\n${open.body}`,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*${open.title}*\n${open.body}` } }],
    });
  });

  it('discord webhook and discord bot: content and an embed', async () => {
    const hook = await deliverOne({ discordWebhook: { discordWebhookUrl: `${http.url}/dw` } });
    expect(hook.json()).toMatchObject({
      content: open.title,
      embeds: [{ title: open.title, description: open.body }],
    });
    http.requests.length = 0;
    const bot = await deliverOne({ discord: { discordChannel: '123', discordToken: 'tok' } });
    expect(bot.path).toBe('/discord/channels/123/messages');
    expect(bot.headers.authorization).toBe('Bot tok');
  });

  it('microsoft teams: a message with an adaptive card', async () => {
    const req = await deliverOne({ microsoftTeams: { microsoftTeamsUrl: `${http.url}/teams` } });
    expect(req.json()).toMatchObject({
      type: 'message',
      attachments: [
        { contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } },
      ],
    });
  });

  it('pagerduty: Events API v2 trigger, then resolve by dedup key', async () => {
    const trigger = await deliverOne({ pagerduty: { routingKey: 'rk' } });
    expect(trigger.path).toBe('/pd/v2/enqueue');
    expect(trigger.json()).toEqual({
      routing_key: 'rk',
      dedup_key: 'mon_1',
      event_action: 'trigger',
      payload: expect.objectContaining({ summary: open.title, source: 'quarry', severity: 'critical' }),
    });
    http.requests.length = 0;
    const resolve = await deliverOne({ pagerduty: { routingKey: 'rk' } }, closed);
    expect(resolve.json()).toEqual({ routing_key: 'rk', dedup_key: 'mon_1', event_action: 'resolve' });
  });

  it('opsgenie: create by alias (EU endpoint when isEU), close by alias', async () => {
    const create = await deliverOne({ opsgenie: { apiKey: 'k', isEU: true } });
    expect(create.path).toBe('/og-eu/v2/alerts');
    expect(create.headers.authorization).toBe('GenieKey k');
    expect(create.json()).toMatchObject({ message: open.title, alias: 'mon_1', source: 'quarry' });
    http.requests.length = 0;
    const close = await deliverOne({ opsgenie: { apiKey: 'k' } }, closed);
    expect(close.path).toBe('/og/v2/alerts/mon_1/close?identifierType=alias');
  });

  it('email: one mail over SMTP with AUTH PLAIN, to every address', async () => {
    const outcome = await delivery.deliver(
      notifier({ email: { emails: ['a@example.test', 'b@example.test'] } }),
      open,
    );
    expect(outcome).toMatchObject({ status: 'delivered' });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].from).toBe('quarry@example.test');
    expect(smtp.mails[0].to).toEqual(['a@example.test', 'b@example.test']);
    expect(smtp.mails[0].data).toContain(`Subject: ${open.title}`);
    expect(smtp.mails[0].data).toContain(open.body);
    expect(smtp.commands).toContain(`AUTH PLAIN ${Buffer.from('\0alice\0s3cret').toString('base64')}`);
  });

  it('refuses email without SMTP, and link-local URLs by default', async () => {
    const noSmtp = new OutboundDelivery({
      policy: urlPolicy([], DENY),
      timeoutMs: 1000,
      attempts: 1,
      backoffMs: 0,
    });
    expect(await noSmtp.deliver(notifier({ email: { emails: ['a@example.test'] } }), open)).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('QUARRY_SMTP_URL'),
    });
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:169.254.169.254]/x',
      'http://[fe80::1]/x',
    ]) {
      expect(await delivery.deliver(notifier({ webhook: { url } }), open)).toMatchObject({
        status: 'refused',
        attempts: 0,
        reason: expect.stringContaining('deny list'),
      });
    }
    expect(http.requests).toHaveLength(0);
  });

  it('honours an allow list, also for names that resolve to allowed addresses', async () => {
    const policy = urlPolicy(['10.0.0.0/8', '*.hooks.test'], DENY, async (host) =>
      host === 'internal.example'
        ? ['10.1.2.3']
        : host === 'meta.example'
          ? ['169.254.169.254']
          : ['203.0.113.9'],
    );
    expect(await policy.refusal('https://internal.example/x')).toBeNull();
    expect(await policy.refusal('https://a.hooks.test/x')).toBeNull();
    expect(await policy.refusal('https://elsewhere.example/x')).toMatch(/allow list/);
    expect(await policy.refusal('https://meta.example/x')).toMatch(/deny list/);
    expect(await policy.refusal('file:///etc/passwd')).toMatch(/not allowed/);
  });

  it('retries 5xx and 429 with backoff, and gives up on other 4xx at once', async () => {
    http.failNext(503, 429);
    expect(await delivery.deliver(notifier({ webhook: { url: `${http.url}/flaky` } }), open)).toMatchObject({
      status: 'delivered',
      attempts: 3,
    });
    http.requests.length = 0;
    http.failNext(500, 500, 500);
    expect(await delivery.deliver(notifier({ webhook: { url: `${http.url}/down` } }), open)).toMatchObject({
      status: 'failed',
      attempts: 3,
    });
    http.requests.length = 0;
    http.failNext(404);
    expect(await delivery.deliver(notifier({ webhook: { url: `${http.url}/gone` } }), open)).toMatchObject({
      status: 'failed',
      attempts: 1,
    });
  });

  it('times out a receiver that never answers', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const quick = new OutboundDelivery({
      policy: urlPolicy([], DENY),
      timeoutMs: 100,
      attempts: 2,
      backoffMs: 1,
    });
    const started = Date.now();
    const outcome = await quick.deliver(notifier({ webhook: { url: `http://127.0.0.1:${port}/` } }), open);
    expect(outcome).toMatchObject({ status: 'failed', attempts: 2 });
    expect(Date.now() - started).toBeLessThan(2000);
    silent.close();
  });
});
