import { addChart, newDashboard, newUid, normalizeLayout, quickSpan, removeChart } from './dashboard-model';

describe('dashboard document editing', () => {
  it('creates a schemaVersion 2 document shared with everyone', () => {
    expect(newDashboard('Ops')).toMatchObject({
      name: 'Ops',
      schemaVersion: 2,
      refreshTime: 60,
      charts: [],
      layout: [],
    });
    expect(newUid('Ops / HTTP!', () => 0.5)).toBe('ops-http-7fffff');
  });

  it('adds charts below the others and removes them with their layout item', () => {
    let doc = addChart(newDashboard('x'), { id: 'a', type: 'TimeSeries', query: { apl: 'q' } });
    doc = addChart(doc, { id: 'b', type: 'Note', text: '# hi' });
    expect(doc.layout).toEqual([
      { i: 'a', x: 0, y: 0, w: 6, h: 4, minW: 2, minH: 2 },
      { i: 'b', x: 0, y: 4, w: 4, h: 4, minW: 2, minH: 2 },
    ]);
    expect(removeChart(doc, 'a').layout.map((l) => l.i)).toEqual(['b']);
    expect(removeChart(doc, 'a').charts.map((c) => c.id)).toEqual(['b']);
  });

  it("keeps grid layouts within the API bounds and drops the grid's own keys", () => {
    const grid = [{ i: 'a', x: 11, y: 2.4, w: 6, h: 0, moved: true, isDraggable: true } as never];
    expect(normalizeLayout(grid)).toEqual([{ i: 'a', x: 6, y: 2, w: 6, h: 1 }]);
  });

  it('reads quick time windows', () => {
    expect(quickSpan('qr-now-15m')).toBe('15m');
    expect(quickSpan('2026-01-01T00:00:00Z')).toBeNull();
  });
});
