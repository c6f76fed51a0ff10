import { HEC_CODES, HecRejection } from './hec-status';

/** What the ack store needs of the metastore: one SQL statement at a time. */
export interface AckDatabase {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * Splunk's data channels (`X-Splunk-Request-Channel`, or `?channel=`): a GUID the client picks. Splunk
 * refuses anything else with code 11, and so does Quarry (the channel is a key of the metastore).
 */
const CHANNEL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The channel of a request: absent (undefined), or a valid GUID (lower-cased); 400 code 11 otherwise. */
export function channelOf(header: string | undefined, query: string | undefined): string | undefined {
  const raw = (header ?? query)?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!CHANNEL.test(raw))
    throw new HecRejection(HEC_CODES.invalidChannel, `"${raw}" is not a channel (a GUID)`);
  return raw.toLowerCase();
}

/** The ack ids a client asks about: `{"acks": [0, 1, ...]}` of non-negative integers. */
export function ackIdsOf(text: string): number[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HecRejection(HEC_CODES.invalidDataFormat, 'the body is not JSON: {"acks": [0, 1, ...]}');
  }
  const acks = (body as { acks?: unknown } | null)?.acks;
  if (!Array.isArray(acks) || !acks.every((a) => Number.isSafeInteger(a) && (a as number) >= 0))
    throw new HecRejection(HEC_CODES.invalidDataFormat, '"acks" must be an array of ack ids (integers ≥ 0)');
  return acks as number[];
}

/**
 * Indexer acknowledgement over the metastore (table `hec_channels`): an ack id is handed out per channel,
 * counting from 0, only once the request's events are durable in the log, so every id handed out is
 * acknowledged — an id the channel never handed out (or a channel never seen) is not.
 */
export class HecAcks {
  constructor(
    private readonly db: AckDatabase,
    private readonly nowMs: () => number,
  ) {}

  /** The next ack id of `channel` (one statement: concurrent requests on one channel get distinct ids). */
  async next(channel: string): Promise<number> {
    const rows = await this.db.query<{ ack_id: unknown }>(
      `INSERT INTO hec_channels (channel, next_ack, updated_at) VALUES ($1, 1, $2)
       ON CONFLICT (channel) DO UPDATE SET next_ack = hec_channels.next_ack + 1, updated_at = EXCLUDED.updated_at
       RETURNING next_ack - 1 AS ack_id`,
      [channel, new Date(this.nowMs()).toISOString()],
    );
    return Number(rows[0].ack_id);
  }

  /** `{"<id>": true|false}` for each id asked about. */
  async status(channel: string, ids: readonly number[]): Promise<Record<string, boolean>> {
    const rows = await this.db.query<{ next_ack: unknown }>(
      'SELECT next_ack FROM hec_channels WHERE channel = $1',
      [channel],
    );
    const next = rows.length === 0 ? 0 : Number(rows[0].next_ack);
    const acks: Record<string, boolean> = {};
    for (const id of ids) acks[String(id)] = id < next;
    return acks;
  }
}
