import {
  messageFor,
  DEFAULT_ENDPOINTS,
  type HttpMessage,
  type OutboundMessage,
  type ReceiverEndpoints,
} from './payloads';
import type { AlertNotification } from './notification';
import { sendMail, type SmtpSettings } from './smtp-client';
import type { UrlPolicy } from './url-policy';

/** A notifier as stored (`/v2/notifiers`): one channel in `properties`. */
export interface NotifierConfig {
  id: string;
  name: string;
  properties: Record<string, Record<string, unknown>>;
  disabledUntil?: string;
}

/** How a delivery ended; a refusal (deny list, no SMTP) is final, a failure was retried first. */
export type DeliveryOutcome =
  | { status: 'delivered'; channel: string; attempts: number }
  | { status: 'refused'; channel: string; attempts: 0; reason: string }
  | { status: 'failed'; channel: string; attempts: number; reason: string };

/** The port the scheduler notifies through (faked in tests). */
export interface NotifierDelivery {
  deliver(notifier: NotifierConfig, notification: AlertNotification): Promise<DeliveryOutcome>;
}

export interface DeliveryOptions {
  policy: UrlPolicy;
  /** Per attempt. */
  timeoutMs: number;
  /** Attempts in all (1 = no retry). */
  attempts: number;
  /** Wait before retry i (0-based) is backoffMs × 2^i. */
  backoffMs: number;
  smtp?: SmtpSettings;
  endpoints?: ReceiverEndpoints;
  sleep?: (ms: number) => Promise<void>;
}

class Retryable extends Error {}

/** Sends notifications over HTTP(S) and SMTP, with the URL policy, a timeout, and retries with backoff. */
export class OutboundDelivery implements NotifierDelivery {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: DeliveryOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  async deliver(notifier: NotifierConfig, notification: AlertNotification): Promise<DeliveryOutcome> {
    const [channel, settings] = Object.entries(notifier.properties)[0] ?? ['none', {}];
    let message: OutboundMessage;
    try {
      message = messageFor(channel, settings, notification, this.options.endpoints ?? DEFAULT_ENDPOINTS);
    } catch (err) {
      return { status: 'refused', channel, attempts: 0, reason: (err as Error).message };
    }
    if (message.kind === 'http') {
      const refusal = await this.options.policy.refusal(message.url);
      if (refusal !== null) return { status: 'refused', channel, attempts: 0, reason: refusal };
    } else if (!this.options.smtp) {
      return { status: 'refused', channel, attempts: 0, reason: 'SMTP is not configured (QUARRY_SMTP_URL)' };
    }
    let reason = '';
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      try {
        if (message.kind === 'http') await this.post(message);
        else await sendMail(this.options.smtp!, message);
        return { status: 'delivered', channel, attempts: attempt };
      } catch (err) {
        reason = (err as Error).message;
        if (!(err instanceof Retryable) && message.kind === 'http')
          return { status: 'failed', channel, attempts: attempt, reason };
        if (attempt < this.options.attempts) await this.sleep(this.options.backoffMs * 2 ** (attempt - 1));
      }
    }
    return { status: 'failed', channel, attempts: this.options.attempts, reason };
  }

  /** One POST: network errors, timeouts, 429 and 5xx are worth retrying; other 4xx are not. */
  private async post(message: HttpMessage): Promise<void> {
    let res: Response;
    try {
      res = await fetch(message.url, {
        method: 'POST',
        headers: { ...message.headers, ...message.secretHeaders },
        body: message.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'manual',
      });
    } catch (err) {
      throw new Retryable(`POST ${redact(message.url)}: ${(err as Error).message}`);
    }
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return;
    const why = `POST ${redact(message.url)} answered ${res.status}`;
    if (res.status === 429 || res.status >= 500) throw new Retryable(why);
    throw new Error(why);
  }
}

/** A URL for logs: webhook URLs carry their secret in the path (Slack, Discord), so only the origin. */
export function redact(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '<invalid url>';
  }
}
