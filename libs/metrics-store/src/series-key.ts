import { createHash } from 'node:crypto';
import type { MetricTags, MetricTagValue } from '@quarry/contracts';

/**
 * Canonical text of a tag set: keys sorted, each value with its type, so `code="200"` and `code=200`
 * are different series (typed tags, mpl.md §1.2) and key order on the wire does not matter.
 */
export function canonicalTags(tags: MetricTags): string {
  return JSON.stringify(
    Object.keys(tags)
      .sort()
      .map((key) => [key, tags[key].type, tags[key].value]),
  );
}

/** Series identity = (metric, full tag set) within a dataset incarnation; 96 bits of SHA-256 as hex. */
export function seriesIdOf(metric: string, tags: MetricTags): string {
  return createHash('sha256')
    .update(metric)
    .update('\0')
    .update(canonicalTags(tags))
    .digest('hex')
    .slice(0, 24);
}

/** Key of a tag value in the inverted index: the type keeps `"4"` and `4` apart. */
export function tagValueKey(tag: MetricTagValue): string {
  return tag.type === 'int' || tag.type === 'float'
    ? `n:${tag.value}`
    : `${tag.type[0]}:${String(tag.value)}`;
}
