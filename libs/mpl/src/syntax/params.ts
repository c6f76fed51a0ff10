/**
 * Params (mpl.md §2.2 "Params"): `param $x: T;` declarations, values supplied per request as MPL
 * literals (`param__x=5m`), and the built-ins `$__interval` / `$__rate_interval`. Every misuse is a
 * 400: undeclared, declared twice, declared but not supplied, a literal that is not of the declared
 * type, or a param used where its type does not fit.
 */
import type { FilterExpr, MplFile, ParamDecl, ParamRef, ParamType, Pipe, Query } from './ast';
import { mplError } from './diagnostics';
import { durationSeconds, tokenize } from './lexer';

export type ParamValue =
  | { type: 'Dataset'; name: string }
  | { type: 'Duration'; seconds: number; text: string }
  | { type: 'Regex'; pattern: string }
  | { type: 'string'; value: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean };

export type ParamValues = ReadonlyMap<string, ParamValue>;

export const MAX_PARAMS = 128;
export const BUILTIN_PARAMS = ['__interval', '__rate_interval'];

/** Friendly steps for `$__interval` (seconds). */
const INTERVAL_STEPS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 604800,
];
/** `$__interval` aims at about this many points over the query range (between 100 and 250 for most ranges). */
export const INTERVAL_TARGET_POINTS = 250;

/** The smallest friendly step that yields at most ~250 points over `rangeSeconds`. */
export function chooseInterval(rangeSeconds: number): number {
  const raw = rangeSeconds / INTERVAL_TARGET_POINTS;
  for (const step of INTERVAL_STEPS) if (step >= raw) return step;
  return Math.ceil(raw / 86400) * 86400;
}

/** Request param keys may carry the `param__` prefix of the HTTP API. */
function stripPrefix(key: string): string {
  return key.startsWith('param__') ? key.slice('param__'.length) : key;
}

function parseLiteral(decl: ParamDecl, raw: string): ParamValue {
  const bad = (why: string) =>
    mplError(
      'mpl_param',
      `param $${decl.name}: ${why} (expected a ${decl.type} literal, got ${JSON.stringify(raw)})`,
      decl.span,
    );
  let tokens;
  try {
    tokens = tokenize(raw).filter((t) => t.kind !== 'eof');
  } catch {
    throw bad('not a valid MPL literal');
  }
  let sign = 1;
  if (
    tokens.length === 2 &&
    tokens[0].kind === 'punct' &&
    (tokens[0].text === '-' || tokens[0].text === '+')
  ) {
    sign = tokens[0].text === '-' ? -1 : 1;
    tokens = tokens.slice(1);
  }
  if (tokens.length !== 1) throw bad('not a single literal');
  const t = tokens[0];
  switch (decl.type) {
    case 'Dataset':
      if ((t.kind === 'ident' || t.kind === 'quoted') && sign === 1) return { type: 'Dataset', name: t.text };
      break;
    case 'Duration':
      if (t.kind === 'duration' && sign === 1)
        return { type: 'Duration', seconds: durationSeconds(t.text), text: t.text };
      break;
    case 'Regex':
      if (t.kind === 'regex') return { type: 'Regex', pattern: t.text };
      break;
    case 'string':
      if (t.kind === 'string') return { type: 'string', value: t.text };
      break;
    case 'int':
      if (t.kind === 'int') return { type: 'int', value: sign * Number(t.text) };
      break;
    case 'float':
      // A float literal needs a `.` (mpl.md §2.2 "Params"); `5` is an int and does not fit.
      if (t.kind === 'float') return { type: 'float', value: sign * Number(t.text) };
      if (t.kind === 'ident' && t.text === 'inf') return { type: 'float', value: sign * Infinity };
      break;
    case 'bool':
      if (t.kind === 'ident' && (t.text === 'true' || t.text === 'false'))
        return { type: 'bool', value: t.text === 'true' };
      break;
  }
  throw bad('wrong literal');
}

export interface ResolvedParams {
  values: ParamValues;
  /** Supplied values nobody declared (a warning, not an error: mpl.md §2.3). */
  unusedSupplied: string[];
}

/**
 * Binds supplied values to declarations and checks every `$x` use in the query against its type.
 * `intervalSeconds` is the value of `$__interval` for this request.
 */
export function resolveParams(
  file: MplFile,
  supplied: Record<string, string> | undefined,
  intervalSeconds: number,
): ResolvedParams {
  const declared = new Map<string, ParamDecl>();
  for (const decl of file.params) {
    if (declared.has(decl.name))
      throw mplError('mpl_param', `param $${decl.name} is declared twice`, decl.span);
    declared.set(decl.name, decl);
  }
  if (declared.size > MAX_PARAMS)
    throw mplError('mpl_param', `too many params (${declared.size}, at most ${MAX_PARAMS})`);
  const given = new Map<string, string>();
  for (const [k, v] of Object.entries(supplied ?? {})) given.set(stripPrefix(k), v);

  const values = new Map<string, ParamValue>();
  values.set('__interval', { type: 'Duration', seconds: intervalSeconds, text: `${intervalSeconds}s` });
  values.set('__rate_interval', {
    type: 'Duration',
    seconds: 4 * intervalSeconds,
    text: `${4 * intervalSeconds}s`,
  });
  for (const decl of declared.values()) {
    const raw = given.get(decl.name);
    if (raw !== undefined) values.set(decl.name, parseLiteral(decl, raw));
  }
  const ifdefNames = checkUses(file.query, declared, values);
  for (const decl of declared.values()) {
    // Dashboards declare the built-ins; an `ifdef($x)` param is optional by design.
    if (values.has(decl.name) || ifdefNames.has(decl.name)) continue;
    throw mplError(
      'mpl_param',
      `param $${decl.name} is declared but no value was supplied (param__${decl.name})`,
      decl.span,
    );
  }
  const unusedSupplied = [...given.keys()].filter((k) => !declared.has(k) && !BUILTIN_PARAMS.includes(k));
  return { values, unusedSupplied };
}

type Context = 'dataset' | 'window' | 'filter' | 'regex-filter' | 'ifdef';

const FITS: Record<Context, ParamType[]> = {
  dataset: ['Dataset'],
  window: ['Duration'],
  filter: ['string', 'int', 'float', 'bool', 'Regex'],
  'regex-filter': ['string', 'int', 'float', 'bool', 'Regex'],
  ifdef: ['Dataset', 'Duration', 'Regex', 'string', 'int', 'float', 'bool'],
};

/** Checks every use; returns the names used in `ifdef(...)`. */
function checkUses(
  query: Query,
  declared: Map<string, ParamDecl>,
  values: Map<string, ParamValue>,
): Set<string> {
  const ifdefNames = new Set<string>();
  const use = (ref: ParamRef, context: Context, conditional: boolean) => {
    const decl = declared.get(ref.name);
    const builtin = BUILTIN_PARAMS.includes(ref.name);
    if (!decl && !builtin)
      throw mplError(
        'mpl_param',
        `param $${ref.name} is not defined (declare it with "param $${ref.name}: <type>;")`,
        ref.span,
      );
    const type: ParamType = decl?.type ?? 'Duration';
    if (!FITS[context].includes(type)) {
      const want = FITS[context].join(' or ');
      throw mplError(
        'mpl_param',
        `param $${ref.name} has type ${type}, but a ${want} is needed here`,
        ref.span,
      );
    }
    if (context !== 'ifdef' && !conditional && !values.has(ref.name)) {
      throw mplError(
        'mpl_param',
        `param $${ref.name} is declared but no value was supplied (param__${ref.name})`,
        ref.span,
      );
    }
  };
  const walkFilter = (e: FilterExpr, conditional: boolean): void => {
    switch (e.kind) {
      case 'or':
      case 'and':
        e.items.forEach((i) => walkFilter(i, conditional));
        return;
      case 'not':
        walkFilter(e.item, conditional);
        return;
      case 'cmp':
        if (e.value.kind === 'param') {
          use(e.value, 'filter', conditional);
          const v = values.get(e.value.name);
          if (v?.type === 'Regex' && e.op !== '==' && e.op !== '!=') {
            throw mplError(
              'mpl_param',
              `regex param $${e.value.name} can only be compared with == or !=`,
              e.value.span,
            );
          }
        }
        return;
      default:
        return;
    }
  };
  const walkPipe = (p: Pipe) => {
    if ((p.kind === 'align' || p.kind === 'bucket') && p.window?.kind === 'param')
      use(p.window, 'window', false);
  };
  const walk = (q: Query): void => {
    if (q.kind === 'compute') {
      walk(q.left);
      walk(q.right);
      q.pipes.forEach(walkPipe);
      return;
    }
    if (q.source.dataset.kind === 'param') use(q.source.dataset, 'dataset', false);
    for (const w of q.filters) {
      if (w.ifdef) {
        use(w.ifdef, 'ifdef', true);
        ifdefNames.add(w.ifdef.name);
      }
      walkFilter(w.expr, w.ifdef !== undefined);
    }
    q.pipes.forEach(walkPipe);
  };
  walk(query);
  return ifdefNames;
}
