/**
 * IPv6 addresses as 128-bit BigInts (apl.md §9.8 ipv6_* functions). IPv4 text is accepted too, as the
 * IPv4-mapped address `::ffff:a.b.c.d` (Kusto). A `/n` suffix is a prefix length.
 */
import { parseIpv4 } from './hash-ip';

export interface Ip6 {
  value: bigint;
  /** Prefix length 0–128 (128 without a suffix). */
  prefix: number;
}

const MAPPED = 0xffffn << 32n;

function parseGroups(text: string): bigint | null {
  if (text === '') return null;
  let head = text;
  let tail = '';
  const dbl = text.indexOf('::');
  if (dbl >= 0) {
    if (text.indexOf('::', dbl + 1) >= 0) return null;
    head = text.slice(0, dbl);
    tail = text.slice(dbl + 2);
  }
  const words = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      if (i === pieces.length - 1 && p.includes('.')) {
        const v4 = parseIpv4(p);
        if (v4 === null) return null;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return null;
        out.push(parseInt(p, 16));
      }
    }
    return out;
  };
  const h = words(head);
  const t = words(tail);
  if (h === null || t === null) return null;
  const missing = 8 - h.length - t.length;
  if (dbl >= 0 ? missing < 1 : missing !== 0) return null;
  const all = [...h, ...new Array<number>(dbl >= 0 ? missing : 0).fill(0), ...t];
  let v = 0n;
  for (const w of all) v = (v << 16n) | BigInt(w);
  return v;
}

export function parseIp6(text: string | null): Ip6 | null {
  if (text === null) return null;
  const s = text.trim();
  const slash = s.indexOf('/');
  const addr = slash >= 0 ? s.slice(0, slash) : s;
  let prefix = 128;
  // `::a.b.c.d` (IPv4-compatible) is the IPv4 address too, its prefix an IPv4 one (Kusto's ipv6_compare page).
  const v4 = parseIpv4(addr.startsWith('::') && addr.includes('.') ? addr.slice(2) : addr);
  let value: bigint | null;
  if (v4 !== null) {
    value = MAPPED | BigInt(v4);
    if (slash >= 0) {
      const n = Number(s.slice(slash + 1));
      if (!Number.isInteger(n) || n < 0 || n > 32) return null;
      prefix = 96 + n;
    }
  } else {
    value = parseGroups(addr);
    if (slash >= 0) {
      const n = Number(s.slice(slash + 1));
      if (!Number.isInteger(n) || n < 0 || n > 128) return null;
      prefix = n;
    }
  }
  return value === null ? null : { value, prefix };
}

function masked(v: bigint, prefix: number): bigint {
  return prefix === 0 ? 0n : (v >> BigInt(128 - prefix)) << BigInt(128 - prefix);
}

/** -1 / 0 / 1 over the first `prefix` bits (the smallest of both addresses' prefixes and the argument). */
export function compareIp6(a: Ip6, b: Ip6, prefix = 128): number {
  const bits = Math.min(a.prefix, b.prefix, prefix);
  const x = masked(a.value, bits);
  const y = masked(b.value, bits);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function ip6InRange(ip: Ip6, range: Ip6): boolean {
  return masked(ip.value, range.prefix) === masked(range.value, range.prefix);
}
