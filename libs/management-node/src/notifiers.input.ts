import type { ResourceRecord } from '@quarry/metastore';
import { validateBody } from './openapi-validation';
import { BodyReader } from './resource-validation';

/** A notifier as stored: `name`, `properties` (one channel) and `disabledUntil`. */
export interface NotifierDocument extends Record<string, unknown> {
  name: string;
  properties: Record<string, Record<string, unknown>>;
  disabledUntil?: string;
}

type ChannelCheck = (channel: BodyReader) => void;

/** The channels of NotifierProperties and the members each one needs (v2.json). */
const CHANNELS: Record<string, ChannelCheck> = {
  email: (c) => void c.stringArray('emails', { required: true, minItems: 1 }),
  slack: (c) => void c.string('slackUrl', { required: true }),
  webhook: (c) => void c.string('url', { required: true }),
  customWebhook: (c) => {
    c.string('url', { required: true });
    c.string('body', { required: true });
    c.stringMap('headers');
    c.stringMap('secretHeaders');
  },
  discord: (c) => {
    c.string('discordChannel', { required: true });
    c.string('discordToken', { required: true });
  },
  discordWebhook: (c) => void c.string('discordWebhookUrl', { required: true }),
  microsoftTeams: (c) => void c.string('microsoftTeamsUrl', { required: true }),
  opsgenie: (c) => {
    c.string('apiKey', { required: true });
    c.boolean('isEU');
  },
  pagerduty: (c) => {
    c.string('routingKey', { required: true });
    c.string('token');
  },
};

/** Validates a Notifier body: exactly one known channel in `properties`, with its required members. */
export function parseNotifier(body: Record<string, unknown>): NotifierDocument {
  validateBody('POST /notifiers', body);
  const reader = new BodyReader(body);
  const name = reader.string('name', { required: true, maxLength: 256 });
  const disabledUntil = reader.dateTime('disabledUntil');
  const properties = reader.nested('properties', true);
  let channel = '';
  if (properties) {
    const configured = Object.entries(body.properties as Record<string, unknown>)
      .filter(([, settings]) => settings !== null && settings !== undefined)
      .map(([key]) => key);
    const unknown = configured.find((key) => !(key in CHANNELS));
    if (unknown !== undefined)
      properties.problem(unknown, `is not a notifier channel (one of ${Object.keys(CHANNELS).join(', ')})`);
    else if (configured.length !== 1) reader.problem('properties', 'must configure exactly one channel');
    else {
      channel = configured[0];
      const settings = properties.nested(channel, true);
      if (settings) CHANNELS[channel](settings);
    }
  }
  reader.finish('notifier', 'notifier_invalid');
  const settings = (body.properties as Record<string, Record<string, unknown>>)[channel];
  const doc: NotifierDocument = { name: name!, properties: { [channel]: settings } };
  if (disabledUntil !== undefined) doc.disabledUntil = disabledUntil;
  return doc;
}

/** What the API shows instead of a secret header's value: secrets are written, never read back. */
export const SECRET_MASK = '********';

/**
 * A replaced custom webhook keeps the stored value of every secret header sent back as the mask (a
 * client that PUTs what it GOT must not overwrite its secrets with asterisks).
 */
export function keepSecretHeaders(doc: NotifierDocument, stored: NotifierDocument): NotifierDocument {
  const next = doc.properties.customWebhook?.secretHeaders as Record<string, string> | undefined;
  const old = stored.properties.customWebhook?.secretHeaders as Record<string, string> | undefined;
  if (!next || !old) return doc;
  const merged = Object.fromEntries(
    Object.entries(next).map(([k, v]) => [k, v === SECRET_MASK && k in old ? old[k] : v]),
  );
  const customWebhook = { ...doc.properties.customWebhook, secretHeaders: merged };
  return { ...doc, properties: { customWebhook } };
}

function masked(doc: NotifierDocument): NotifierDocument {
  const secrets = doc.properties.customWebhook?.secretHeaders as Record<string, string> | undefined;
  if (!secrets) return doc;
  const secretHeaders = Object.fromEntries(Object.keys(secrets).map((k) => [k, SECRET_MASK]));
  return { ...doc, properties: { customWebhook: { ...doc.properties.customWebhook, secretHeaders } } };
}

/** NotifierWithId with the read-only audit members; secret header values are masked. */
export function notifierView(record: ResourceRecord<NotifierDocument>) {
  return {
    id: record.id,
    ...masked(record.document),
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    updatedAt: record.updatedAt,
  };
}
