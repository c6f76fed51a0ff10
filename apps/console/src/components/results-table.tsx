import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { formatCell, type ResultGrid } from '../query-result';

/**
 * A virtualised result grid: only the rows in view (plus a few) are in the DOM, so 100k rows scroll
 * like 100. `aria-rowcount` tells assistive technology how many rows there are in all.
 */
export function ResultsTable({
  grid,
  label,
  selected,
  onSelect,
  height = 420,
}: {
  grid: ResultGrid;
  label: string;
  selected?: number | null;
  onSelect?: (row: number) => void;
  height?: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: grid.rowCount,
    getScrollElement: () => scroller.current,
    estimateSize: () => 28,
    overscan: 12,
  });
  const template = grid.columns.map((c) => (c === '_time' ? '16em' : 'minmax(8em, 1fr)')).join(' ');
  const items = virtualizer.getVirtualItems();
  return (
    <div
      className="results"
      role="grid"
      aria-label={label}
      aria-rowcount={grid.rowCount + 1}
      aria-colcount={grid.columns.length}
      aria-readonly="true"
    >
      <div role="rowgroup" className="results-head">
        <div role="row" aria-rowindex={1} className="results-row" style={{ gridTemplateColumns: template }}>
          {grid.columns.map((c, i) => (
            <div role="columnheader" key={c} aria-colindex={i + 1} title={`${c} (${grid.types[i]})`}>
              {c}
            </div>
          ))}
        </div>
      </div>
      <div
        ref={scroller}
        className="results-body"
        role="rowgroup"
        style={{ maxHeight: height }}
        tabIndex={0}
        aria-label={`${label} rows`}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => (
            <div
              role="row"
              key={item.key}
              aria-rowindex={item.index + 2}
              aria-selected={onSelect ? selected === item.index : undefined}
              className={`results-row${selected === item.index ? ' selected' : ''}`}
              style={{
                gridTemplateColumns: template,
                transform: `translateY(${item.start}px)`,
                height: item.size,
              }}
              onClick={onSelect ? () => onSelect(item.index) : undefined}
            >
              {grid.columns.map((c, ci) => {
                const text = formatCell(grid.values[ci]![item.index]);
                return (
                  <div
                    role="gridcell"
                    key={c}
                    aria-colindex={ci + 1}
                    title={text.length > 40 ? text : undefined}
                  >
                    {text}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      </div>
      {grid.rowCount === 0 && <p className="muted empty">No rows matched.</p>}
    </div>
  );
}
