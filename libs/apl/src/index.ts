export * from './ast';
export * from './diagnostics';
export { parseApl, parseAplExpression, TABULAR_OPERATORS, STRING_OPERATORS, typeFromName } from './parser';
export { TIMESPAN_UNITS } from './timespan';
export { SourceText } from './source-text';
