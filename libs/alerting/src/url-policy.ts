import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which hosts notifiers may call. Entries are CIDRs (`10.0.0.0/8`, `fe80::/10`), IP addresses, host
 * names, or `*.suffix` host patterns. A URL is refused when its host, or any address it resolves to,
 * matches the deny list, or when an allow list is set and neither matches it. Link-local addresses
 * (cloud metadata services such as 169.254.169.254 live there) are denied by default. The check resolves the name once before sending; it is a guard against configuration
 * mistakes, not against a DNS server that answers differently on the second lookup. The default deny
 * list is QUARRY_NOTIFIER_DENY's default (libs/server config).
 */
export interface UrlPolicy {
  /** Why `url` may not be called, or null when it may. */
  refusal(url: string): Promise<string | null>;
}

interface Matcher {
  addresses: BlockList;
  names: string[];
  empty: boolean;
}

function matcherOf(entries: readonly string[]): Matcher {
  const addresses = new BlockList();
  const names: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const [ip, bits] = entry.split('/');
    const family = isIP(ip);
    if (family !== 0) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) addresses.addAddress(ip, type);
      else addresses.addSubnet(ip, Number(bits), type);
    } else names.push(entry);
  }
  return { addresses, names, empty: entries.every((e) => e.trim() === '') };
}

function nameMatches(names: string[], host: string): boolean {
  return names.some((n) => (n.startsWith('*.') ? host.endsWith(n.slice(1)) : host === n));
}

function addressMatches(m: Matcher, address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (m.addresses.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
  // An IPv4-mapped IPv6 address (::ffff:169.254.169.254) is checked as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped !== null && m.addresses.check(mapped[1], 'ipv4');
}

export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

export function urlPolicy(
  allow: readonly string[],
  deny: readonly string[],
  resolve: Resolve = resolveAll,
): UrlPolicy {
  const allowed = matcherOf(allow);
  const denied = matcherOf(deny);
  return {
    async refusal(url: string): Promise<string | null> {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return `"${url}" is not a URL`;
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        return `${parsed.protocol} URLs are not allowed`;
      const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      let addresses: string[];
      try {
        addresses = isIP(host) !== 0 ? [host] : await resolve(host);
      } catch (err) {
        return `cannot resolve ${host}: ${(err as Error).message}`;
      }
      const hit = (m: Matcher) => nameMatches(m.names, host) || addresses.some((a) => addressMatches(m, a));
      if (hit(denied)) return `${host} is on the notifier deny list (QUARRY_NOTIFIER_DENY)`;
      if (!allowed.empty && !hit(allowed))
        return `${host} is not on the notifier allow list (QUARRY_NOTIFIER_ALLOW)`;
      return null;
    },
  };
}
