/**
 * Label selectors in their query-string form (`app=x,tier!=db,env in (a,b),!legacy`), as `labelSelector`
 * carries them on list and watch. Parsing fails with a message the fake server returns as a 400.
 */

type Requirement =
  { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | 'doesnotexist' };

export type LabelSelector = (labels: Record<string, string> | undefined) => boolean;

export type ParsedSelector = { ok: true; matches: LabelSelector } | { ok: false; message: string };

const KEY = String.raw`[A-Za-z0-9][-A-Za-z0-9_./]*`;
const VALUE = String.raw`[-A-Za-z0-9_.]*`;
const EQUALITY = new RegExp(String.raw`^(${KEY})\s*(==|=|!=)\s*(${VALUE})$`);
const SET = new RegExp(String.raw`^(${KEY})\s+(in|notin)\s+\(([^)]*)\)$`);
const EXISTS = new RegExp(String.raw`^(!?)\s*(${KEY})$`);

export function parseLabelSelector(text: string | undefined): ParsedSelector {
  const requirements: Requirement[] = [];
  for (const clause of splitClauses(text ?? '')) {
    const requirement = parseClause(clause);
    if (!requirement) return { ok: false, message: `unable to parse requirement: ${JSON.stringify(clause)}` };
    requirements.push(requirement);
  }
  return { ok: true, matches: (labels) => requirements.every((r) => satisfies(r, labels ?? {})) };
}

/** Splits on commas that are not inside a `( … )` value set. */
function splitClauses(text: string): string[] {
  const clauses: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    if (text[i] === ')') depth--;
    if (text[i] === ',' && depth === 0) {
      clauses.push(text.slice(start, i));
      start = i + 1;
    }
  }
  clauses.push(text.slice(start));
  return clauses.map((clause) => clause.trim()).filter((clause) => clause !== '');
}

function parseClause(clause: string): Requirement | undefined {
  const equality = EQUALITY.exec(clause);
  if (equality) {
    const [, key, op, value] = equality;
    return { key, op: op === '!=' ? 'notin' : 'in', values: [value] };
  }
  const set = SET.exec(clause);
  if (set) {
    const [, key, op, values] = set;
    return { key, op: op as 'in' | 'notin', values: values.split(',').map((v) => v.trim()) };
  }
  const exists = EXISTS.exec(clause);
  if (exists) return { key: exists[2], op: exists[1] === '!' ? 'doesnotexist' : 'exists' };
  return undefined;
}

function satisfies(requirement: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, requirement.key);
  switch (requirement.op) {
    case 'exists':
      return has;
    case 'doesnotexist':
      return !has;
    case 'in':
      return has && requirement.values.includes(labels[requirement.key]);
    case 'notin':
      // As in Kubernetes, `key!=value` and `notin` also match objects that lack the label.
      return !has || !requirement.values.includes(labels[requirement.key]);
  }
}
