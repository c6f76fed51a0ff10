import { createHash } from 'node:crypto';
import { isNullish, str, type ScalarImpl } from './scalar-impl';

function hashFn(algo: string): ScalarImpl {
  return ([v], [k]) =>
    isNullish(v)
      ? null
      : createHash(algo)
          .update(str(v, k) ?? '', 'utf8')
          .digest('hex');
}

export function parseIpv4(text: string | null): number | null {
  if (text === null) return null;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text.trim());
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const b = Number(m[i]);
    if (b > 255) return null;
    n = n * 256 + b;
  }
  return n;
}

function parseCidr(text: string | null): { base: number; bits: number } | null {
  if (text === null) return null;
  const [ip, bitsText] = text.split('/');
  const base = parseIpv4(ip);
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  if (base === null || !Number.isInteger(bits) || bits < 0 || bits > 32) return null;
  return { base, bits };
}

function inRange(ip: number, cidr: { base: number; bits: number }): boolean {
  if (cidr.bits === 0) return true;
  const size = 2 ** (32 - cidr.bits);
  return Math.floor(ip / size) === Math.floor(cidr.base / size);
}

const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].map((c) => parseCidr(c)!);

export const HASH_IP_FUNCTIONS: Record<string, ScalarImpl> = {
  hash_md5: hashFn('md5'),
  hash_sha1: hashFn('sha1'),
  hash_sha256: hashFn('sha256'),
  hash_sha512: hashFn('sha512'),
  ipv4_is_private: ([v], [k]) => {
    const ip = parseIpv4(str(v, k));
    return ip === null ? null : PRIVATE.some((c) => inRange(ip, c));
  },
  ipv4_is_in_range: ([v, r], kinds) => {
    const ip = parseIpv4(str(v, kinds[0]));
    const cidr = parseCidr(str(r, kinds[1]));
    return ip === null || cidr === null ? null : inRange(ip, cidr);
  },
  ipv4_is_in_any_range: (args, kinds) => {
    const ip = parseIpv4(str(args[0], kinds[0]));
    if (ip === null) return null;
    const ranges = args.slice(1).flatMap((r) => (Array.isArray(r) ? r : [r]));
    return ranges.some((r) => {
      const c = parseCidr(typeof r === 'string' ? r : null);
      return c !== null && inRange(ip, c);
    });
  },
  parse_ipv4: ([v], [k]) => parseIpv4(str(v, k)),
  format_ipv4: ([v]) => {
    if (typeof v !== 'number' || v < 0 || v > 0xffffffff) return null;
    return [24, 16, 8, 0].map((s) => Math.floor(v / 2 ** s) % 256).join('.');
  },
};
