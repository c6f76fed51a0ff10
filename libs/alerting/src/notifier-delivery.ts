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

/** One attempt of a delivery, as the delivery log keeps it. */
export interface DeliveryTry {
  attempt: number;
  /** Epoch ms the attempt started. */
  atMs: number;
  ok: boolean;
  /** The receiver's HTTP status, when it answered one. */
  httpStatus?: number;
  error?: string;
}

/**
 * How a delivery ended, with each attempt (`tries`); a refusal (deny list, no SMTP) is final and made
 * no attempt, a failure was retried first.
 */
export type DeliveryOutcome =
  | { status: 'delivered'; channel: string; attempts: number; tries: DeliveryTry[] }
  | { status: 'refused'; channel: string; attempts: 0; reason: string; tries: DeliveryTry[] }
  | { status: 'failed'; channel: string; attempts: number; reason: string; tries: DeliveryTry[] };

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
  /** Epoch ms, for the attempts' times (tests). */
  now?: () => number;
}

/** A failed attempt; `retryable` when trying again may help (network, timeout, 429, 5xx). */
class AttemptFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

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
      return { status: 'refused', channel, attempts: 0, reason: (err as Error).message, tries: [] };
    }
    if (message.kind === 'http') {
      const refusal = await this.options.policy.refusal(message.url);
      if (refusal !== null) return { status: 'refused', channel, attempts: 0, reason: refusal, tries: [] };
    } else if (!this.options.smtp) {
      const reason = 'SMTP is not configured (QUARRY_SMTP_URL)';
      return { status: 'refused', channel, attempts: 0, reason, tries: [] };
    }
    const now = this.options.now ?? Date.now;
    const tries: DeliveryTry[] = [];
    let reason = '';
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      const atMs = now();
      try {
        if (message.kind === 'http') {
          const httpStatus = await this.post(message);
          tries.push({ attempt, atMs, ok: true, httpStatus });
        } else {
          await sendMail(this.options.smtp!, message);
          tries.push({ attempt, atMs, ok: true });
        }
        return { status: 'delivered', channel, attempts: attempt, tries };
      } catch (err) {
        reason = (err as Error).message;
        const failed = err instanceof AttemptFailed ? err : null;
        tries.push({ attempt, atMs, ok: false, httpStatus: failed?.httpStatus, error: reason });
        // SMTP errors are all retried (a busy relay answers 4xx); HTTP only what may pass next time.
        if (message.kind === 'http' && !failed?.retryable)
          return { status: 'failed', channel, attempts: attempt, reason, tries };
        if (attempt < this.options.attempts) await this.sleep(this.options.backoffMs * 2 ** (attempt - 1));
      }
    }
    return { status: 'failed', channel, attempts: this.options.attempts, reason, tries };
  }

  /** One POST, answering the receiver's status: network errors, timeouts, 429 and 5xx are worth retrying. */
  private async post(message: HttpMessage): Promise<number> {
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
      throw new AttemptFailed(`POST ${redact(message.url)}: ${(err as Error).message}`, true);
    }
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return res.status;
    const why = `POST ${redact(message.url)} answered ${res.status}`;
    throw new AttemptFailed(why, res.status === 429 || res.status >= 500, res.status);
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
