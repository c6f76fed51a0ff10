/**
 * Parsed APL by query text. Parsing depends on the text alone (no schema, clock, window or dataset
 * list), so a cached tree can never be stale: everything that does depend on the catalog — dataset
 * schemas, virtual fields, name patterns, the time window, `now()` — is bound afresh by the planner on
 * every run. A dashboard repeating the same text, and the access check and the run of one request (two
 * parses of the same text before), then skip the lexer and parser.
 *
 * Trees are shared between concurrent queries, so they are deep-frozen: a planner or rule that wrote
 * into the tree would throw instead of leaking one query's state into the next. Parse errors are not
 * cached (they rethrow on every run, with their span).
 */
import { parseApl, type Query } from '@quarry/apl';

/** Texts kept (least recently used out first). */
const MAX_ENTRIES = 512;
/** Longer texts are parsed every time: rare, and not worth holding. */
const MAX_TEXT_LENGTH = 16_384;

export class ParseCache {
  private readonly entries = new Map<string, Query>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly parse: (text: string) => Query = parseApl,
  ) {}

  get(text: string): Query {
    const cached = this.entries.get(text);
    if (cached !== undefined) {
      this.hits++;
      // Most recently used last.
      this.entries.delete(text);
      this.entries.set(text, cached);
      return cached;
    }
    this.misses++;
    const query = deepFreeze(this.parse(text));
    sharedTrees.add(query);
    if (text.length <= MAX_TEXT_LENGTH) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(text, query);
    }
    return query;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Trees this module deep-froze: safe to memoize facts about (they can never change). */
const sharedTrees = new WeakSet<Query>();

/** Whether `query` came from a `ParseCache` (deep-frozen, so anything derived from it alone stays true). */
export function isSharedTree(query: Query): boolean {
  return sharedTrees.has(query);
}

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v as object)) stack.push(child);
  }
  return value;
}

/** The process-wide cache `runApl`, `referencedDatasets` and `explainApl` parse through. */
export const parseCache = new ParseCache();

/** `parseApl(text)` through the process-wide cache (a frozen tree; do not modify it). */
export function parseAplCached(text: string): Query {
  return parseCache.get(text);
}
