import { FUNCTIONS, KEYWORDS, TABULAR_OPERATORS, AGGREGATIONS } from './apl-words';

/** What completion knows besides the language: the datasets and the fields of the dataset being queried. */
export interface CompletionContext {
  datasets: readonly string[];
  fields: readonly { name: string; type: string }[];
}

export interface AplCompletionOption {
  label: string;
  /** CodeMirror's completion kinds: an icon and a sort hint. */
  type: 'keyword' | 'function' | 'variable' | 'class' | 'property';
  detail?: string;
  apply?: string;
}

export interface AplCompletionResult {
  /** Offset in the text where the completed word starts. */
  from: number;
  options: AplCompletionOption[];
}

/**
 * Completions at the end of `before` (the text up to the cursor): dataset names at the start and inside
 * `['…`, tabular operators right after a pipe, otherwise the dataset's fields, functions and keywords.
 * Returns null where nothing is typed and nothing is expected (a space after a field, say), so the
 * editor does not pop a list on every keystroke.
 */
export function aplCompletions(
  before: string,
  context: CompletionContext,
  explicit = false,
): AplCompletionResult | null {
  const dataset = /\[(['"])([^'"\]]*)$/.exec(before);
  if (dataset) {
    const from = before.length - dataset[2]!.length;
    return {
      from,
      options: context.datasets.map((name) => ({ label: name, type: 'class', detail: 'dataset' })),
    };
  }
  const word = /[A-Za-z_][A-Za-z0-9_-]*$/.exec(before);
  const from = word ? before.length - word[0].length : before.length;
  const head = before.slice(0, from);
  const previous = head.trimEnd();
  if (!word && !explicit && !/\|\s*$/.test(before) && previous.length > 0) return null;
  if (previous.length === 0) {
    return {
      from,
      options: context.datasets.map((name) => ({
        label: `['${name}']`,
        type: 'class',
        detail: 'dataset',
        apply: `['${name}']`,
      })),
    };
  }
  if (previous.endsWith('|')) {
    return {
      from,
      options: TABULAR_OPERATORS.map((label) => ({ label, type: 'keyword', detail: 'operator' })),
    };
  }
  const aggregating = /\|\s*summarize\b[^|]*$/.test(head) && !/\bby\b[^|]*$/.test(head);
  // Aggregations first where they belong (summarize's aggregates), scalar functions first elsewhere.
  const scalars = FUNCTIONS.filter((f) => !AGGREGATIONS.includes(f as never));
  const functions = aggregating
    ? [...AGGREGATIONS, ...scalars]
    : [...scalars, ...AGGREGATIONS.filter((a) => !scalars.includes(a))];
  return {
    from,
    options: [
      ...context.fields.map((f) => ({
        label: f.name,
        type: 'property' as const,
        detail: typeWord(f.type),
        apply: /^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name) ? f.name : `['${f.name.replace(/'/g, "\\'")}']`,
      })),
      ...functions.map((label) => ({
        label,
        type: 'function' as const,
        detail: 'function',
        apply: `${label}(`,
      })),
      ...KEYWORDS.map((label) => ({ label, type: 'keyword' as const })),
    ],
  };
}

/** The dataset a query reads first (`['logs'] | …` or `logs | …`), whose fields completion offers. */
export function datasetOf(query: string): string | null {
  const quoted = /^\s*(?:\/\/[^\n]*\n\s*)*\[(['"])((?:[^'"\\]|\\.)+)\1\]/.exec(query);
  if (quoted) return quoted[2]!;
  const bare = /^\s*(?:\/\/[^\n]*\n\s*)*([A-Za-z_][A-Za-z0-9_.-]*)\s*(\||$)/.exec(query);
  return bare ? bare[1]! : null;
}

/** The server's field types as the words a person reads. */
export function typeWord(type: string): string {
  const t = type.toLowerCase();
  const words = t.split('|').map((part) => {
    switch (part) {
      case 'int':
      case 'integer':
      case 'long':
        return 'integer';
      case 'float':
      case 'real':
      case 'double':
        return 'real';
      case 'bool':
      case 'boolean':
        return 'boolean';
      case 'datetime':
      case 'timestamp':
        return 'datetime';
      case 'timespan':
        return 'timespan';
      case 'string':
        return 'string';
      case 'array':
        return 'array';
      case 'map':
      case 'object':
      case 'dynamic':
        return 'dynamic';
      default:
        return part || 'unknown';
    }
  });
  return [...new Set(words)].join(' | ');
}
