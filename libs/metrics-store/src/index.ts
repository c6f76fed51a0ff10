export * from './types';
export * from './series-key';
export * from './point-block';
export * from './metrics-log-codec';
export { SeriesCatalog, type SeriesEntry, type Window } from './series-catalog';
export { MetricsTail } from './metrics-tail';
export { MetricsInfo } from './metrics-info';
export * from './metrics-store';
