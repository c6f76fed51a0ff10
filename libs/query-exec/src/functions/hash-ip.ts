import { createHash } from 'node:crypto';
import type { ColumnKind } from '@quarry/contracts';
import { isNullish, str, type ScalarImpl } from './scalar-impl';

function hashFn(algo: string): ScalarImpl {
  return ([v], [k]) =>
    isNullish(v)
      ? null
      : createHash(algo)
          .update(str(v, k) ?? '', 'utf8')
          .digest('hex');
}

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A dotted-quad IPv4 address (no prefix) as an unsigned 32-bit number; null when an octet is over 255. */
export function parseIpv4(text: string | null): number | null {
  if (text === null) return null;
  const m = DOTTED_QUAD.exec(text.trim());
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const b = Number(m[i]);
    if (b > 255) return null;
    n = n * 256 + b;
  }
  return n;
}

/** An IPv4 address with the prefix length of its IP-prefix notation (`a.b.c.d/n`, 32 without one). */
export interface Ipv4Prefixed {
  /** The address as written (not masked). */
  ip: number;
  bits: number;
}

/**
 * Kusto's IP-prefix notation: `192.168.1.1/24` is the address with a 24-bit mask. Every IPv4 function that
 * takes an address accepts it (parse_ipv4, ipv4_compare, ipv4_is_match, ipv4_is_private, …).
 */
export function parseIpv4Prefixed(text: string | null): Ipv4Prefixed | null {
  if (text === null) return null;
  const s = text.trim();
  const slash = s.indexOf('/');
  const ip = parseIpv4(slash < 0 ? s : s.slice(0, slash));
  if (ip === null) return null;
  if (slash < 0) return { ip, bits: 32 };
  const suffix = s.slice(slash + 1).trim();
  if (!/^\d{1,2}$/.test(suffix)) return null;
  const bits = Number(suffix);
  return bits <= 32 ? { ip, bits } : null;
}

/** The address with all but its first `bits` bits cleared. */
export function maskIpv4(ip: number, bits: number): number {
  if (bits <= 0) return 0;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) * size;
}

/** A valid optional prefix argument (an integer 0–32), `undefined` when absent, `null` when invalid. */
export function prefixArgument(v: unknown, max: number): number | undefined | null {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) return null;
  return v;
}

function parseCidr(text: string | null): { base: number; bits: number } | null {
  const p = parseIpv4Prefixed(text);
  return p === null ? null : { base: p.ip, bits: p.bits };
}

function inRange(ip: number, cidr: { base: number; bits: number }): boolean {
  return maskIpv4(ip, cidr.bits) === maskIpv4(cidr.base, cidr.bits);
}

const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].map((c) => parseCidr(c)!);

export const HASH_IP_FUNCTIONS: Record<string, ScalarImpl> = {
  hash_md5: hashFn('md5'),
  hash_sha1: hashFn('sha1'),
  hash_sha256: hashFn('sha256'),
  hash_sha512: hashFn('sha512'),
  ipv4_is_private: ([v], [k]) => {
    // `192.168.1.1/24` is private when its masked address is (Kusto's page).
    const p = parseIpv4Prefixed(str(v, k));
    if (p === null) return null;
    const ip = maskIpv4(p.ip, p.bits);
    return PRIVATE.some((c) => inRange(ip, c));
  },
  ipv4_is_in_range: ([v, r], kinds) => {
    const p = parseIpv4Prefixed(str(v, kinds[0]));
    const cidr = parseCidr(str(r, kinds[1]));
    return p === null || cidr === null ? null : inRange(maskIpv4(p.ip, p.bits), cidr);
  },
  ipv4_is_in_any_range: (args, kinds) => {
    const p = parseIpv4Prefixed(str(args[0], kinds[0]));
    if (p === null) return null;
    const ip = maskIpv4(p.ip, p.bits);
    const ranges = args.slice(1).flatMap((r) => (Array.isArray(r) ? r : [r]));
    // Kusto's page: null when a text cannot be read as an address. A range that contains the address
    // still wins (true), like `or` with a null operand; otherwise an unreadable range gives null.
    let unreadable = false;
    for (const r of ranges) {
      const c = parseCidr(typeof r === 'string' ? r : null);
      if (c === null) unreadable = true;
      else if (inRange(ip, c)) return true;
    }
    return unreadable ? null : false;
  },
  parse_ipv4: ([v], [k]) => {
    const p = parseIpv4Prefixed(str(v, k));
    return p === null ? null : maskIpv4(p.ip, p.bits);
  },
  format_ipv4: ([ip, prefix], kinds) => {
    // Kusto: an address that cannot be read, or a prefix outside 0–32, formats as "".
    const m = ipv4WithMask(ip, kinds[0], prefix);
    if (m === undefined) return null;
    return m === null ? '' : formatIpv4(m.ip);
  },
};

/**
 * An IPv4 address (text `a.b.c.d[/n]` or a long in big-endian order) masked to the smaller of its own
 * prefix and `prefix`. `undefined` for a null input, `null` when the address or the prefix is invalid.
 */
export function ipv4WithMask(
  ip: unknown,
  kind: ColumnKind,
  prefix: unknown,
): { ip: number; bits: number } | null | undefined {
  if (isNullish(ip)) return undefined;
  let value: number | null;
  let bits = 32;
  if (typeof ip === 'number' && kind !== 'string')
    value = Number.isInteger(ip) && ip >= 0 && ip <= 0xffffffff ? ip : null;
  else {
    const p = parseIpv4Prefixed(str(ip, kind));
    value = p?.ip ?? null;
    if (p) bits = p.bits;
  }
  if (value === null) return null;
  if (!isNullish(prefix)) {
    const n = prefixArgument(prefix, 32);
    if (n === null || n === undefined) return null;
    bits = Math.min(bits, n);
  }
  return { ip: maskIpv4(value, bits), bits };
}

export function formatIpv4(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

/**
 * The valid IPv4 addresses written in a text. Kusto: an address must be delimited by non-alphanumeric
 * characters ("05:04:54127.0.0.1" holds none), and "127.0.0.256" is no address.
 */
export function ipv4sIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9.])\d{1,3}(?:\.\d{1,3}){3}(?![A-Za-z0-9]|\.\d)/g)) {
    if (parseIpv4(m[0]) !== null) out.push(m[0]);
  }
  return out;
}

/**
 * A valid IPv4 prefix for has_ipv4_prefix: a whole address, or one to three octets each followed by a dot
 * (`192.`, `192.168.`, `192.168.1.`). Kusto: "127.0" is not one.
 */
export function isIpv4Prefix(p: string): boolean {
  if (parseIpv4(p) !== null) return true;
  const m = /^(\d{1,3}\.){1,3}$/.exec(p);
  return m !== null && p.split('.').every((o) => o === '' || Number(o) <= 255);
}

/** `ip` (a valid address text) starts with the valid prefix `p` (a whole address must be equal). */
export function ipv4HasPrefix(ip: string, p: string): boolean {
  return p.endsWith('.') ? ip.startsWith(p) : ip === p;
}
