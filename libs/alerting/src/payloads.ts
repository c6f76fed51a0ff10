import type { AlertNotification } from './notification';

/** An HTTP request a notifier sends. `secretHeaders` are sent but never logged. */
export interface HttpMessage {
  kind: 'http';
  channel: string;
  url: string;
  headers: Record<string, string>;
  secretHeaders: Record<string, string>;
  body: string;
}

export interface EmailMessage {
  kind: 'email';
  channel: 'email';
  to: string[];
  subject: string;
  text: string;
}

export type OutboundMessage = HttpMessage | EmailMessage;

/** Where the SaaS receivers live; tests point them at loopback receivers. */
export interface ReceiverEndpoints {
  pagerduty: string;
  opsgenie: string;
  opsgenieEu: string;
  discordApi: string;
}

export const DEFAULT_ENDPOINTS: ReceiverEndpoints = {
  pagerduty: 'https://events.pagerduty.com',
  opsgenie: 'https://api.opsgenie.com',
  opsgenieEu: 'https://api.eu.opsgenie.com',
  discordApi: 'https://discord.com/api/v10',
};

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const RED = 0xd93025;
const GREEN = 0x1e8e3e;

type Settings = Record<string, unknown>;

/** The message a notifier's channel sends for `n` (the receiver's documented payload shape). */
export function messageFor(
  channel: string,
  settings: Settings,
  n: AlertNotification,
  endpoints: ReceiverEndpoints = DEFAULT_ENDPOINTS,
): OutboundMessage {
  const http = (url: string, body: unknown, headers: Record<string, string> = {}): HttpMessage => ({
    kind: 'http',
    channel,
    url,
    headers: { ...JSON_HEADERS, ...headers },
    secretHeaders: {},
    body: JSON.stringify(body),
  });
  const text = `${n.title}\n${n.body}`;
  switch (channel) {
    case 'webhook':
      return http(String(settings.url), webhookPayload(n));
    case 'customWebhook':
      return {
        kind: 'http',
        channel,
        url: String(settings.url),
        headers: { ...JSON_HEADERS, ...((settings.headers as Record<string, string>) ?? {}) },
        secretHeaders: (settings.secretHeaders as Record<string, string>) ?? {},
        body: renderTemplate(String(settings.body), n),
      };
    case 'slack':
      // Incoming webhook: `text` is the notification fallback, the section block what is shown.
      return http(String(settings.slackUrl), {
        text,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*${n.title}*\n${n.body}` } }],
      });
    case 'discordWebhook':
      return http(String(settings.discordWebhookUrl), discordMessage(n));
    case 'discord':
      return http(
        `${endpoints.discordApi}/channels/${encodeURIComponent(String(settings.discordChannel))}/messages`,
        discordMessage(n),
        { Authorization: `Bot ${String(settings.discordToken)}` },
      );
    case 'microsoftTeams':
      // A Workflows / connector webhook takes a message with an Adaptive Card attachment.
      return http(String(settings.microsoftTeamsUrl), {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: n.title, weight: 'Bolder', size: 'Medium', wrap: true },
                { type: 'TextBlock', text: n.body, wrap: true },
              ],
            },
          },
        ],
      });
    case 'pagerduty':
      return http(`${endpoints.pagerduty}/v2/enqueue`, pagerDutyEvent(settings, n));
    case 'opsgenie':
      return opsgenieMessage(settings, n, settings.isEU === true ? endpoints.opsgenieEu : endpoints.opsgenie);
    case 'email':
      return {
        kind: 'email',
        channel: 'email',
        to: (settings.emails as string[]) ?? [],
        subject: n.title,
        text: `${n.body}\n\nMonitor: ${n.name} (${n.monitorId})\nWindow: ${n.queryStartTime} – ${n.queryEndTime}\n`,
      };
    default:
      throw new Error(`unknown notifier channel "${channel}"`);
  }
}

/** The generic webhook body: `{action, event}` with the notification's members. */
export function webhookPayload(n: AlertNotification) {
  return {
    action: n.action,
    event: {
      monitorID: n.monitorId,
      checkID: n.checkId,
      title: n.title,
      body: n.body,
      description: n.description,
      value: n.value,
      matchedEvent: n.matchedEvent,
      groupKeys: n.groupKeys,
      groupValues: n.groupValues,
      queryStartTime: n.queryStartTime,
      queryEndTime: n.queryEndTime,
      timestamp: n.timestamp,
    },
  };
}

/**
 * A custom webhook body template: `{{.Name}}` is replaced by the member's text (`{{.Value}}`,
 * `{{.Title}}`, ... — Go-template style, as Axiom documents), `{{json .Name}}` by its JSON encoding.
 * Strings substituted with `{{.Name}}` are JSON-escaped (without quotes) so a template that is JSON
 * stays JSON whatever the alert says. Unknown variables are left as they are.
 */
export function renderTemplate(template: string, n: AlertNotification): string {
  const vars: Record<string, unknown> = {
    Action: n.action,
    MonitorID: n.monitorId,
    CheckID: n.checkId,
    Name: n.name,
    AlertName: n.name,
    Title: n.title,
    Body: n.body,
    Message: n.body,
    Description: n.description,
    Value: n.value,
    MatchedEvent: n.matchedEvent,
    GroupKeys: n.groupKeys,
    GroupValues: n.groupValues,
    QueryStartTime: n.queryStartTime,
    QueryEndTime: n.queryEndTime,
    Timestamp: n.timestamp,
  };
  return template.replace(
    /\{\{\s*(json\s+)?\.(\w+)\s*\}\}/g,
    (whole, asJson: string | undefined, name: string) => {
      if (!(name in vars)) return whole;
      const value = vars[name];
      if (asJson) return JSON.stringify(value ?? null);
      if (value === null || value === undefined) return '';
      const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
      return JSON.stringify(text).slice(1, -1);
    },
  );
}

function discordMessage(n: AlertNotification) {
  return {
    content: n.title,
    embeds: [
      {
        title: n.title,
        description: n.body,
        color: n.action === 'Open' ? RED : GREEN,
        timestamp: n.timestamp,
      },
    ],
  };
}

/** PagerDuty Events API v2: trigger on open, resolve on close, deduplicated by the check. */
export function pagerDutyEvent(settings: Settings, n: AlertNotification) {
  const common = { routing_key: String(settings.routingKey), dedup_key: n.checkId };
  if (n.action === 'Closed') return { ...common, event_action: 'resolve' };
  return {
    ...common,
    event_action: 'trigger',
    payload: {
      summary: n.title.slice(0, 1024),
      source: 'quarry',
      severity: 'critical',
      timestamp: n.timestamp,
      custom_details: { body: n.body, value: n.value, monitorId: n.monitorId, matchedEvent: n.matchedEvent },
    },
  };
}

/** Opsgenie Alert API: create on open (alias = check), close by alias on close. */
function opsgenieMessage(settings: Settings, n: AlertNotification, base: string): HttpMessage {
  const auth = { Authorization: `GenieKey ${String(settings.apiKey)}` };
  const message = (url: string, body: unknown): HttpMessage => ({
    kind: 'http',
    channel: 'opsgenie',
    url,
    headers: { ...JSON_HEADERS },
    secretHeaders: auth,
    body: JSON.stringify(body),
  });
  if (n.action === 'Closed') {
    return message(`${base}/v2/alerts/${encodeURIComponent(n.checkId)}/close?identifierType=alias`, {
      source: 'quarry',
      note: n.body,
    });
  }
  return message(`${base}/v2/alerts`, {
    message: n.title.slice(0, 130),
    alias: n.checkId,
    description: n.body.slice(0, 15000),
    source: 'quarry',
    details: { monitorId: n.monitorId, value: String(n.value) },
  });
}
