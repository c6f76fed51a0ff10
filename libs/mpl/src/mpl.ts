/** The public entry points of @quarry/mpl: validate, list datasets, run. */
import { isQuarryError } from '@quarry/common';
import type { MetricsSource } from '@quarry/contracts';
import { datasetOf, executePart, executeQuery, expandHistograms, type ExecContext } from './exec/executor';
import type { TagMap } from './exec/frame';
import { partOf, splittablePrefix, type MplFramePart, type MplOffload } from './exec/series-split';
import { compileFilter } from './exec/filter';
import { DEFAULT_MPL_LIMITS, type MplLimits } from './exec/limits';
import { finalizeFrame, type MplResult } from './result';
import type { MplFile, Query } from './syntax/ast';
import { diagnosticOf, mplError, type MplDiagnostic } from './syntax/diagnostics';
import { chooseInterval, resolveParams, type ResolvedParams } from './syntax/params';
import { parseMpl } from './syntax/parser';

export interface MplRunOptions {
  source: MetricsSource;
  /** Request range, unix seconds: start inclusive, end exclusive. */
  startSec: number;
  endSec: number;
  /** "now" for relative source ranges (`[1h..]`). */
  nowSec: number;
  /** `param__x` (or `x`) → MPL literal text. */
  params?: Record<string, string>;
  limits?: Partial<MplLimits>;
  /** Splits simple queries over series across nodes (exec/series-split.ts); absent: all here. */
  offload?: MplOffload;
  /** Stops the query between series (the client went away). */
  signal?: AbortSignal;
}

interface Compiled {
  file: MplFile;
  params: ResolvedParams;
  intervalSeconds: number;
}

/** Parse + param binding + filter compilation: everything that can fail without data. */
function compile(text: string, params: Record<string, string> | undefined, rangeSeconds: number): Compiled {
  const file = parseMpl(text);
  const intervalSeconds = chooseInterval(rangeSeconds);
  const resolved = resolveParams(file, params, intervalSeconds);
  // Compiling the filters checks regexes now; an `ifdef` clause whose param is absent never runs.
  forEachSimple(file.query, (q) =>
    q.filters
      .filter((w) => !w.ifdef || resolved.values.has(w.ifdef.name))
      .forEach((w) => compileFilter(w.expr, resolved.values)),
  );
  return { file, params: resolved, intervalSeconds };
}

function forEachSimple(q: Query, fn: (q: Extract<Query, { kind: 'simple' }>) => void): void {
  if (q.kind === 'compute') {
    forEachSimple(q.left, fn);
    forEachSimple(q.right, fn);
  } else fn(q);
}

/** Diagnostics of a query ([] when valid). Validation uses a one-hour range for `$__interval`. */
export function validateMpl(text: string, params?: Record<string, string>): MplDiagnostic[] {
  try {
    compile(text, params, 3600);
    return [];
  } catch (err) {
    if (isQuarryError(err)) return [diagnosticOf(err)];
    throw err;
  }
}

/** Datasets a query reads, for authorization before running it. Throws like `runMpl` on invalid text. */
export function datasetsOfMpl(text: string, params?: Record<string, string>): string[] {
  const { file, params: resolved } = compile(text, params, 3600);
  const out = new Set<string>();
  forEachSimple(file.query, (q) => out.add(datasetOf(q.source, resolved.values)));
  return [...out];
}

/** The execution context of a compiled query (what `runMpl` and `runMplPart` share). */
function contextFor(compiled: Compiled, options: MplRunOptions): ExecContext {
  const { params, intervalSeconds } = compiled;
  const supplied = new Set(
    Object.keys(options.params ?? {}).map((k) => (k.startsWith('param__') ? k.slice(7) : k)),
  );
  const parts = new Map<Extract<Query, { kind: 'simple' }>, number>();
  forEachSimple(compiled.file.query, (q) => parts.set(q, parts.size));
  return {
    source: options.source,
    range: { start: options.startSec, end: options.endSec },
    nowSec: options.nowSec,
    params: params.values,
    supplied,
    limits: { ...DEFAULT_MPL_LIMITS, ...options.limits },
    intervalSeconds,
    warnings: params.unusedSupplied.map((p) => `param__${p} was supplied but not declared`),
    pointsRead: 0,
    units: new Set(),
    offload: options.offload,
    partOf: parts,
    signal: options.signal,
  };
}

function checkedRange(options: MplRunOptions): void {
  if (!(options.endSec > options.startSec))
    throw mplError('mpl_invalid_value', 'the query range is empty: endTime must be after startTime');
}

export async function runMpl(text: string, options: MplRunOptions): Promise<MplResult> {
  checkedRange(options);
  const compiled = compile(text, options.params, options.endSec - options.startSec);
  const { file } = compiled;
  const ctx = contextFor(compiled, options);
  const frame = await executeQuery(file.query, ctx);
  expandHistograms(frame); // histograms that reach the output are shown as their scalar sub-series
  const series = finalizeFrame(frame, ctx);
  const unit = file.directives.find((d) => d.name === 'custom_unit')?.value;
  return {
    series,
    groupKeys: frame.groupKeys ?? [],
    customUnit: unit && unit.kind !== 'ident' ? String(unit.value) : unit?.name,
    // One unit when every source series agrees (a compute over ms and By has none).
    unit: ctx.units.size === 1 ? [...ctx.units][0] : undefined,
    warnings: ctx.warnings,
    stats: { pointsRead: ctx.pointsRead, seriesReturned: series.length },
  };
}

/**
 * One node's share of a query split over series: simple query number `part` (in the order
 * `MplOffload.split` names them), over the series `inShare` accepts, through its splittable pipes.
 */
export async function runMplPart(
  text: string,
  options: Omit<MplRunOptions, 'offload'>,
  part: number,
  inShare: (metric: string, tags: TagMap) => boolean,
): Promise<MplFramePart> {
  checkedRange(options);
  const compiled = compile(text, options.params, options.endSec - options.startSec);
  const ctx: ExecContext = { ...contextFor(compiled, options), seriesFilter: inShare, warnings: [] };
  const q = [...ctx.partOf!].find(([, n]) => n === part)?.[0];
  if (!q) throw mplError('mpl_invalid_value', `the query has no part ${part}`);
  const { frame, selected } = await executePart(q, splittablePrefix(q.pipes), ctx);
  return partOf(frame, selected, ctx);
}
