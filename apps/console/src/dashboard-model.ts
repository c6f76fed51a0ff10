/**
 * The `/v2/dashboards` document as the console edits it: charts and a 12-column `layout` whose items
 * are react-grid-layout's own (`i` = chart id), so a layout change is saved back unchanged.
 */
export type ChartType = 'TimeSeries' | 'Statistic' | 'Table' | 'LogStream' | 'Note' | 'Pie' | 'TopK';

export interface DashboardChart {
  id: string;
  type: ChartType | string;
  name?: string;
  query?: { apl: string };
  text?: string;
  [key: string]: unknown;
}

export interface LayoutItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW?: number;
  minH?: number;
  maxW?: number;
  maxH?: number;
  static?: boolean;
}

export interface DashboardDocument {
  name: string;
  owner: string;
  description?: string;
  charts: DashboardChart[];
  layout: LayoutItem[];
  refreshTime: 15 | 60 | 300;
  schemaVersion: 2;
  timeWindowStart: string;
  timeWindowEnd: string;
  [key: string]: unknown;
}

export interface DashboardResource {
  uid: string;
  version: number;
  dashboard: DashboardDocument;
  updatedAt?: string;
}

export const EVERYONE = 'X-AXIOM-EVERYONE';

export const CHART_TYPES: { type: ChartType; label: string }[] = [
  { type: 'TimeSeries', label: 'Time series' },
  { type: 'Statistic', label: 'Statistic' },
  { type: 'Table', label: 'Table' },
  { type: 'LogStream', label: 'Log stream' },
  { type: 'Note', label: 'Note' },
  { type: 'Pie', label: 'Pie' },
  { type: 'TopK', label: 'Top list' },
];

export function newDashboard(name: string): DashboardDocument {
  return {
    name,
    owner: EVERYONE,
    description: '',
    charts: [],
    layout: [],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: 'qr-now-1h',
    timeWindowEnd: 'qr-now',
  };
}

/** A uid for a new dashboard: its name as a slug plus a random tail (`ops-3f9a1c`). */
export function newUid(name: string, random: () => number = Math.random): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  const tail = Math.floor(random() * 0xffffff)
    .toString(16)
    .padStart(6, '0');
  return slug ? `${slug}-${tail}` : `dashboard-${tail}`;
}

/** Adds a chart at the bottom-left, half the width (notes and statistics a third). */
export function addChart(doc: DashboardDocument, chart: DashboardChart): DashboardDocument {
  const bottom = doc.layout.reduce((max, item) => Math.max(max, item.y + item.h), 0);
  const w = chart.type === 'Statistic' || chart.type === 'Note' ? 4 : 6;
  return {
    ...doc,
    charts: [...doc.charts, chart],
    layout: [...doc.layout, { i: chart.id, x: 0, y: bottom, w, h: 4, minW: 2, minH: 2 }],
  };
}

export function removeChart(doc: DashboardDocument, id: string): DashboardDocument {
  return {
    ...doc,
    charts: doc.charts.filter((c) => c.id !== id),
    layout: doc.layout.filter((l) => l.i !== id),
  };
}

/** Layout items from the grid, kept within the API's bounds (x 0–11, w 1–12, h 1–100) and only known keys. */
export function normalizeLayout(items: readonly Partial<LayoutItem>[]): LayoutItem[] {
  return items.map((l) => {
    const out: LayoutItem = {
      i: String(l.i),
      x: clamp(Math.round(l.x ?? 0), 0, 11),
      y: Math.max(0, Math.round(l.y ?? 0)),
      w: clamp(Math.round(l.w ?? 1), 1, 12),
      h: clamp(Math.round(l.h ?? 1), 1, 100),
    };
    if (l.minW !== undefined) out.minW = clamp(Math.round(l.minW), 1, 12);
    if (l.minH !== undefined) out.minH = Math.max(0.5, Math.min(100, l.minH));
    if (l.maxW !== undefined) out.maxW = clamp(Math.round(l.maxW), 1, 12);
    if (l.maxH !== undefined) out.maxH = clamp(Math.round(l.maxH), 1, 100);
    if (l.static) out.static = true;
    if (out.x + out.w > 12) out.x = 12 - out.w;
    return out;
  });
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** `qr-now-1h` → `1h` (the dashboard's quick range), or null for an absolute window. */
export function quickSpan(timeWindowStart: string): string | null {
  const m = /^qr-now-(\d+[mhd])$/.exec(timeWindowStart);
  return m ? m[1]! : null;
}
