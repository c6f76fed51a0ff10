import type { ResultRows } from './result-rows';

/** A monitor's query and the window it runs over: `[startMs, endMs)`. */
export interface MonitorQuery {
  language: 'apl' | 'mpl';
  text: string;
  startMs: number;
  endMs: number;
  /** The query's `now()`. */
  nowMs: number;
}

/** The port monitors run their queries through (faked by tests). */
export interface MonitorQueryRunner {
  run(query: MonitorQuery): Promise<ResultRows>;
}
