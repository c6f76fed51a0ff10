/**
 * Datetime text as Kusto's `datetime()` literals and `todatetime()` read it (Kusto reference, "The datetime
 * data type" → Supported formats): ISO 8601 and the sortable form with unpadded month and day
 * (`2014-11-8 15:05`), RFC 822 (`Sat, 8 Nov 14 15:05:02 GMT`), RFC 850 (`Saturday, 08-Nov-14 15:05:02 GMT`),
 * and the US month/day/year texts Kusto's own examples use (`02/17/2016 08:40:00`, `12-02-2022`).
 * Ingestion keeps the strict RFC 3339 reader (`parseRfc3339`); this one is for query text only.
 */
import { MS_PER_MINUTE, parseRfc3339, roundMicros } from './time';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Zone names RFC 822 allows, as minutes east of UTC. */
const ZONES: Record<string, number> = {
  z: 0,
  gmt: 0,
  ut: 0,
  utc: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};

const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?`;
const ZONE = String.raw`(?:\s*([A-Za-z]{1,3}|[+-]\d{2}:?\d{2}))?`;
/** `2014-11-8`, `2014-11-08T15:05`, `2014-11-8 15:05:25 GMT` (ISO 8601 and Kusto's "sortable"). */
const SORTABLE_RE = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt ]${TIME})?${ZONE}$`);
/** `02/17/2016 08:40:00`, `12-02-2022` (month first). */
const US_RE = new RegExp(String.raw`^(\d{1,2})([/-])(\d{1,2})\2(\d{4})(?:[Tt ]+${TIME})?${ZONE}$`);
/** `Sat, 8 Nov 14 15:05:02 GMT` (RFC 822) and `Saturday, 08-Nov-14 15:05 GMT` (RFC 850). */
const RFC_RE = new RegExp(
  String.raw`^(?:[A-Za-z]+,\s*)?(\d{1,2})([ -])([A-Za-z]{3})\2(\d{2}|\d{4})\s+${TIME}${ZONE}$`,
);

/** Minutes east of UTC of a zone text (`GMT`, `+02:00`, `-0500`); null when unknown. */
function zoneMinutes(zone: string | undefined): number | null {
  if (!zone) return 0;
  const named = ZONES[zone.toLowerCase()];
  if (named !== undefined) return named;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/** Two-digit years as .NET reads them: 00–49 → 2000–2049, 50–99 → 1950–1999. */
function fullYear(text: string): number {
  if (text.length === 4) return Number(text);
  const y = Number(text);
  return y < 50 ? 2000 + y : 1900 + y;
}

function build(
  year: number,
  month: number,
  day: number,
  time: (string | undefined)[],
  zone: string | undefined,
): number | null {
  const [h = '0', mi = '0', s = '0', frac = ''] = time;
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const offset = zoneMinutes(zone);
  if (offset === null) return null;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  // Day 31 of a 30-day month would roll over into the next month: no such date.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  let ms = date.getTime();
  if (frac) ms += Math.round(Number((frac + '000000000').slice(0, 9)) / 1000) / 1000;
  return roundMicros(ms - offset * MS_PER_MINUTE);
}

/**
 * Reads a datetime text in any format Kusto's `datetime()` / `todatetime()` accepts; epoch milliseconds
 * (microsecond precision) or null. RFC 3339 is tried first, so every text `parseRfc3339` reads keeps its value.
 */
export function parseKustoDatetime(text: string): number | null {
  const s = text.trim();
  const rfc3339 = parseRfc3339(s);
  if (rfc3339 !== null) return rfc3339;
  let m = SORTABLE_RE.exec(s);
  if (m) return build(Number(m[1]), Number(m[2]), Number(m[3]), m.slice(4, 8), m[8]);
  m = US_RE.exec(s);
  if (m) return build(Number(m[4]), Number(m[1]), Number(m[3]), m.slice(5, 9), m[9]);
  m = RFC_RE.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[3].toLowerCase()) + 1;
    if (month === 0) return null;
    return build(fullYear(m[4]), month, Number(m[1]), m.slice(5, 9), m[9]);
  }
  return null;
}
