export { runMpl, validateMpl, datasetsOfMpl, type MplRunOptions } from './mpl';
export { renderMpl, type MplFormat } from './render';
export type { MplResult, MplSeries, MplTagJson } from './result';
export type { MplDiagnostic, MplDiagnosticCode } from './syntax/diagnostics';
export { DEFAULT_MPL_LIMITS, type MplLimits } from './exec/limits';
export { MPL_SPEC_MARKDOWN } from './spec-markdown';
export { MemoryMetricsSource } from './testing/memory-metrics-source';
export { parseMpl } from './syntax/parser';
