/**
 * `top N by _time` (and `sort by _time | take N`, fused into it) over a plain scan: the scan reads blocks
 * newest first (oldest first for ascending order) and, once the heap holds N rows, skips every block whose
 * time range cannot beat the worst row kept. "The latest 100 errors" then reads a few blocks instead of
 * the whole window.
 */
import { TIME_FIELD } from '@quarry/contracts';
import type { PlanNode, ScanNode, TopNode } from '@quarry/query-plan';
import type { ExecEnv } from './exec-env';

/** Told the `_time` of the worst row kept whenever the heap is full. */
export type TopBoundSink = (worstKeptMs: number) => void;

/**
 * Registers a read-order hint for the scan under `top` when the plan allows it and returns the sink the
 * heap reports its bound to; returns undefined when the top is not by `_time` over rows straight from a
 * scan (only filters, and extends/projects that keep `_time` as is, in between).
 */
export function planTimeOrderedTop(top: TopNode, env: ExecEnv): TopBoundSink | undefined {
  const scan = timeOrderedTopScan(top);
  if (scan === null) return undefined;
  let worstKept: number | null = null;
  const desc = top.keys[0].desc;
  env.scanHints.set(scan, {
    direction: desc ? 'desc' : 'asc',
    // A row replaces the worst kept one only when strictly better, so a block entirely at or beyond the
    // bound has nothing to offer.
    skip: (minMs, maxMs) => worstKept !== null && (desc ? maxMs <= worstKept : minMs >= worstKept),
  });
  return (ms) => {
    worstKept = ms;
  };
}

/** The scan a `top N by _time` reads in time order (reading a few blocks), else null. */
export function timeOrderedTopScan(top: TopNode): ScanNode | null {
  if (top.keys.length !== 1) return null;
  const key = top.keys[0];
  if (key.expr.kind !== 'col' || key.expr.name !== TIME_FIELD) return null;
  return scanFeeding(top.input);
}

function scanFeeding(node: PlanNode): ScanNode | null {
  for (;;) {
    switch (node.kind) {
      case 'scan':
        return node;
      case 'filter':
        node = node.input;
        break;
      case 'extend':
      case 'project':
        if (
          node.items.some(
            (i) => i.name === TIME_FIELD && !(i.expr.kind === 'col' && i.expr.name === TIME_FIELD),
          )
        )
          return null;
        if (node.kind === 'project' && !node.items.some((i) => i.name === TIME_FIELD)) return null;
        node = node.input;
        break;
      default:
        return null;
    }
  }
}
