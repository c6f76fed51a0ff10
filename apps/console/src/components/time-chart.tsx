import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { TimeSeries } from '../query-result';

const COLORS = [
  '#3b5bdb',
  '#e8590c',
  '#2b8a3e',
  '#c2255c',
  '#7048e8',
  '#0b7285',
  '#e67700',
  '#5c940d',
  '#862e9c',
  '#495057',
];

/**
 * A time series drawn by uPlot on a canvas. The chart is one image to assistive technology
 * (`role="img"`, named "… chart"); its legend is a row of toggle buttons outside it.
 */
export default function TimeChart({
  data,
  label,
  height = 220,
  variant = 'line',
  onDrawn,
}: {
  data: TimeSeries;
  label: string;
  height?: number;
  variant?: 'line' | 'bars';
  /** Called with the draw time in ms after each (re)draw: the performance test reads it. */
  onDrawn?: (ms: number) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hidden, setHidden] = useState<Set<string>>(new Set());

  useEffect(() => {
    const el = host.current!;
    const started = performance.now();
    let drawn = false;
    const bars = variant === 'bars' ? uPlot.paths.bars!({ size: [0.8, 40] }) : undefined;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      hooks: {
        // uPlot draws after the constructor returns: the draw hook is when the canvas is done.
        draw: [
          () => {
            if (drawn) return;
            drawn = true;
            const drawMs = performance.now() - started;
            // Read by the performance test (and handy in devtools): how long the first full draw took.
            el.dataset.drawMs = drawMs.toFixed(1);
            el.dataset.points = String(data.xs.length * data.series.length);
            onDrawn?.(drawMs);
          },
        ],
      },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [{ stroke: '#555' }, { stroke: '#555', size: 56 }],
      series: [
        {},
        ...data.series.map((s, i) => ({
          label: s.name,
          stroke: COLORS[i % COLORS.length],
          fill: variant === 'bars' ? `${COLORS[i % COLORS.length]}aa` : undefined,
          width: 1.5,
          paths: bars,
          points: { show: false },
          show: !hidden.has(s.name),
        })),
      ],
    };
    const u = new uPlot(opts, [data.xs, ...data.series.map((s) => s.values)] as uPlot.AlignedData, el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Hidden series are toggled on the live plot below, not by rebuilding it.
  }, [data, height, variant]);

  const toggle = (name: string, index: number) => {
    const next = new Set(hidden);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    setHidden(next);
    plot.current?.setSeries(index + 1, { show: !next.has(name) });
  };

  return (
    <div className="chart">
      <div className="chart-canvas" ref={host} role="img" aria-label={label} />
      {data.series.length > 0 && (
        <div className="legend" aria-label={`${label} legend`} role="group">
          {data.series.map((s, i) => (
            <button
              type="button"
              key={s.name}
              className="legend-item"
              aria-pressed={!hidden.has(s.name)}
              onClick={() => toggle(s.name, i)}
            >
              <span className="swatch" aria-hidden="true" style={{ background: COLORS[i % COLORS.length] }} />
              {s.name || 'value'}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
