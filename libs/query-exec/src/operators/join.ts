/**
 * join / lookup: hash join with the right side built in memory (Axiom limits both sides to 50k rows).
 * Kinds: inner, innerunique, leftouter, rightouter, fullouter, leftsemi/semi, leftanti/anti, rightsemi,
 * rightanti (Kusto semantics; null keys never match). Right rows without a partner are emitted after
 * the left side is exhausted.
 */
import { selectRows, type Column, type ColumnBatch } from '@quarry/contracts';
import type { JoinNode } from '@quarry/query-plan';
import { nullColumn, readValue } from '../columns';
import { concatBatches } from '../concat';
import type { BatchStream, ExecEnv } from './exec-env';

function keyOf(batch: ColumnBatch, names: string[], i: number): string | null {
  let key = '';
  for (const n of names) {
    const c = batch.columns.get(n);
    const v = c ? readValue(c, i) : null;
    if (v === null) return null;
    key +=
      (typeof v === 'string' ? 's' : typeof v === 'number' ? 'n' : 'j') +
      (typeof v === 'object' ? JSON.stringify(v) : String(v)) +
      '\u0001';
  }
  return key;
}

export async function* join(
  left: BatchStream,
  right: BatchStream,
  node: JoinNode,
  env: ExecEnv,
): BatchStream {
  const rightBatches: ColumnBatch[] = [];
  for await (const b of right) {
    env.budget.hold(b.length, 'the right side of a join');
    rightBatches.push(b);
  }
  const r = rightBatches.length
    ? concatBatches(rightBatches)
    : { length: 0, columns: new Map<string, Column>() };
  const rightKeys = node.on.map((c) => c.right);
  const leftKeys = node.on.map((c) => c.left);
  const table = new Map<string, number[]>();
  for (let i = 0; i < r.length; i++) {
    const k = keyOf(r, rightKeys, i);
    if (k === null) continue;
    let rows = table.get(k);
    if (!rows) table.set(k, (rows = []));
    rows.push(i);
  }
  const kind = node.joinKind;
  const outer = kind === 'leftouter' || kind === 'fullouter';
  const unique = kind === 'innerunique';
  const semi = kind === 'leftsemi' || kind === 'semi';
  const anti = kind === 'leftanti' || kind === 'anti';
  const rightOnly = kind === 'rightsemi' || kind === 'rightanti';
  // Kinds that need to know which right rows found a partner.
  const trackRight = rightOnly || kind === 'rightouter' || kind === 'fullouter';
  const rightMatched = new Uint8Array(trackRight ? r.length : 0);
  const seenLeftKeys = new Set<string>();
  for await (const lb of left) {
    const lsel: number[] = [];
    const rsel: number[] = [];
    for (let i = 0; i < lb.length; i++) {
      const k = keyOf(lb, leftKeys, i);
      const matches = k === null ? undefined : table.get(k);
      if (trackRight && matches) for (const j of matches) rightMatched[j] = 1;
      if (rightOnly) continue;
      if (semi || anti) {
        if (!!matches === semi) lsel.push(i);
        continue;
      }
      if (unique && k !== null) {
        if (seenLeftKeys.has(k)) continue;
        seenLeftKeys.add(k);
      }
      if (matches) {
        for (const j of matches) {
          lsel.push(i);
          rsel.push(j);
        }
      } else if (outer) {
        lsel.push(i);
        rsel.push(-1);
      }
    }
    if (lsel.length === 0) continue;
    const lpart = selectRows(lb, lsel);
    if (semi || anti) {
      yield lpart;
      continue;
    }
    const columns = new Map(lpart.columns);
    const hasMissing = rsel.some((j) => j < 0);
    const safeSel = hasMissing ? rsel.map((j) => (j < 0 ? 0 : j)) : rsel;
    const rpart = r.length ? selectRows(r, safeSel) : null;
    node.right.schema.forEach((f, idx) => {
      const outName = node.rightNames[idx];
      if (outName === null) return;
      let col =
        rpart?.columns.get(f.name) ?? nullColumn(f.type === 'dynamic' ? 'string' : f.type, lsel.length);
      if (hasMissing) col = maskRows(col, rsel);
      columns.set(outName, col);
    });
    yield { length: lsel.length, columns };
  }
  if (!trackRight) return;
  // Right rows without a partner (rightouter / fullouter / rightanti) or with one (rightsemi).
  const keepMatched = kind === 'rightsemi';
  const sel: number[] = [];
  for (let j = 0; j < r.length; j++) if (!!rightMatched[j] === keepMatched) sel.push(j);
  if (sel.length === 0) return;
  const rpart = selectRows(r, sel);
  if (rightOnly) {
    yield rpart;
    return;
  }
  // Left columns are null, except a shared `on key` column, which takes the right row's key.
  const columns = new Map<string, Column>();
  for (const f of node.left.schema)
    columns.set(f.name, nullColumn(f.type === 'dynamic' ? 'string' : f.type, sel.length));
  for (const c of node.on) {
    const keyCol = rpart.columns.get(c.right);
    const idx = node.right.schema.findIndex((f) => f.name === c.right);
    if (c.left === c.right && keyCol && idx >= 0 && node.rightNames[idx] === null)
      columns.set(c.left, keyCol);
  }
  node.right.schema.forEach((f, idx) => {
    const outName = node.rightNames[idx];
    if (outName === null) return;
    columns.set(
      outName,
      rpart.columns.get(f.name) ?? nullColumn(f.type === 'dynamic' ? 'string' : f.type, sel.length),
    );
  });
  yield { length: sel.length, columns };
}

function maskRows(col: Column, rsel: number[]): Column {
  const n = rsel.length;
  switch (col.kind) {
    case 'string': {
      const codes = col.codes.slice();
      for (let i = 0; i < n; i++) if (rsel[i] < 0) codes[i] = -1;
      return { kind: 'string', codes, dict: col.dict };
    }
    case 'dynamic': {
      const values = col.values.slice();
      for (let i = 0; i < n; i++) if (rsel[i] < 0) values[i] = null;
      return { kind: 'dynamic', values };
    }
    default: {
      const nulls = col.nulls ? col.nulls.slice() : new Uint8Array(n);
      for (let i = 0; i < n; i++) if (rsel[i] < 0) nulls[i] = 1;
      return { ...col, nulls } as Column;
    }
  }
}
