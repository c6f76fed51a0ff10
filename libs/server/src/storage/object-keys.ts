import { randomBytes } from 'node:crypto';

/**
 * Block object keys. Each upload gets a key of its own — `<block id>.<write tag>` — although block ids
 * derive from the log range: two compactors that built the same range (one of them about to lose its
 * partition) must never write the same object, or the loser could overwrite or delete what the winner
 * registered. The write tag starts with the upload time, so a sweeper can tell an old unreferenced object
 * (garbage of a crash or a lost race) from one whose registration is still in flight.
 */
export function writeTag(nowMs = Date.now()): string {
  return `${nowMs.toString(36)}-${randomBytes(4).toString('hex')}`;
}

export function blockObjectKey(datasetId: string, blockId: string, nowMs = Date.now()): string {
  return `blocks/${datasetId}/${blockId}.${writeTag(nowMs)}.qblk`;
}

export function mergedBlockObjectKey(datasetId: string, blockId: string, nowMs = Date.now()): string {
  return `blocks/${datasetId}/${blockId}.${writeTag(nowMs)}.merged.qblk`;
}

/**
 * When the object behind `key` was written, from its write tag; null for keys without one (written by
 * versions before write tags), which a time-based sweep therefore never removes.
 */
export function writtenAtMs(key: string): number | null {
  const match = /\.([0-9a-z]{6,12})-[0-9a-f]{8}\.(?:merged\.)?q(?:blk|mb)$/.exec(key);
  if (!match) return null;
  const ms = parseInt(match[1], 36);
  return Number.isSafeInteger(ms) ? ms : null;
}
