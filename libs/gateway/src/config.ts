import { invalid } from '@quarry/common';
import type { PoolName } from './routes';

/**
 * The gateway's configuration: environment variables only, parsed once at start. Each variable has its
 * default and help text next to it, and validation reports every bad variable at once (like the server's
 * `loadConfig`).
 */
export type GatewayLogLevel = 'error' | 'warn' | 'log' | 'debug' | 'verbose';
const LOG_LEVELS: readonly GatewayLogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

export interface GatewayConfig {
  port: number;
  host: string;
  /** Base URLs (origins) of each pool's members. */
  upstreams: Record<PoolName, string[]>;
  /** How often every member's `GET /readyz` is probed. */
  healthIntervalMs: number;
  /** How long one upstream request may take to answer (headers) and between body chunks. */
  upstreamTimeoutMs: number;
  logLevel: GatewayLogLevel;
}

/** A parser answers the value, or a string saying what is wrong. */
type Parse = (raw: string) => { value: unknown } | string;

interface Variable {
  default?: string;
  help: string;
  parse: Parse;
}

const int =
  (min: number, max: number): Parse =>
  (raw) => {
    const text = raw.trim();
    const value = Number(text);
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) return 'must be an integer';
    if (value < min) return `must be >= ${min}`;
    if (value > max) return `must be <= ${max}`;
    return { value };
  };

/** Comma-separated http(s) base URLs without a path, query or fragment; answered as origins. */
const urlList: Parse = (raw) => {
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return 'name at least one base URL, e.g. http://10.0.0.5:8080';
  const problems: string[] = [];
  const origins: string[] = [];
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      problems.push(`${JSON.stringify(entry)} is not a URL`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`${entry} is not http(s)`);
    else if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
      problems.push(`${entry} must be a bare base URL (no path, query or credentials)`);
    else if (origins.includes(url.origin)) problems.push(`${entry} is listed twice`);
    else origins.push(url.origin);
  }
  return problems.length > 0 ? problems.join('; ') : { value: origins };
};

const upstreamHelp = (role: PoolName) =>
  `Comma-separated base URLs of the ${role} nodes (e.g. http://10.0.0.5:8080,http://10.0.0.6:8080; in Kubernetes the ${role} Service URL).`;

export const GATEWAY_CONFIG_VARIABLES: Record<string, Variable> = {
  PORT: { default: '8080', help: 'HTTP port to listen on.', parse: int(0, 65535) },
  HOST: {
    default: '0.0.0.0',
    help: 'Interface to listen on.',
    parse: (raw) => (raw.trim() ? { value: raw.trim() } : 'must not be empty'),
  },
  QUARRY_GATEWAY_INGEST_URLS: { help: upstreamHelp('ingest'), parse: urlList },
  QUARRY_GATEWAY_QUERY_URLS: { help: upstreamHelp('query'), parse: urlList },
  QUARRY_GATEWAY_MANAGEMENT_URLS: { help: upstreamHelp('management'), parse: urlList },
  QUARRY_GATEWAY_HEALTH_INTERVAL_MS: {
    default: '1000',
    help: "How often each node's GET /readyz is probed, in milliseconds; two failed probes in a row take a node out, one success brings it back.",
    parse: int(10, 3_600_000),
  },
  QUARRY_GATEWAY_UPSTREAM_TIMEOUT_MS: {
    default: '300000',
    help: 'How long a node may take to answer a forwarded request (and to send the next piece of its body), in milliseconds; longer gets 504. Queries can be long.',
    parse: int(100, 86_400_000),
  },
  QUARRY_LOG_LEVEL: {
    default: 'log',
    help: `Gateway log level (${LOG_LEVELS.join(', ')}).`,
    parse: (raw) =>
      (LOG_LEVELS as readonly string[]).includes(raw)
        ? { value: raw }
        : `must be one of ${LOG_LEVELS.join(', ')}`,
  },
};

/** Parses the environment; throws one `invalid` error listing every problem. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(GATEWAY_CONFIG_VARIABLES)) {
    const given = env[name];
    const raw = given === undefined || given === '' ? variable.default : given;
    if (raw === undefined) {
      problems.push(`${name}: required`);
      continue;
    }
    const parsed = variable.parse(raw);
    if (typeof parsed === 'string') problems.push(`${name}=${JSON.stringify(raw)}: ${parsed}`);
    else values[name] = parsed.value;
  }
  if (problems.length > 0) {
    throw invalid(`invalid configuration:\n  ${problems.join('\n  ')}`, { code: 'config_invalid' });
  }
  return {
    port: values.PORT as number,
    host: values.HOST as string,
    upstreams: {
      ingest: values.QUARRY_GATEWAY_INGEST_URLS as string[],
      query: values.QUARRY_GATEWAY_QUERY_URLS as string[],
      management: values.QUARRY_GATEWAY_MANAGEMENT_URLS as string[],
    },
    healthIntervalMs: values.QUARRY_GATEWAY_HEALTH_INTERVAL_MS as number,
    upstreamTimeoutMs: values.QUARRY_GATEWAY_UPSTREAM_TIMEOUT_MS as number,
    logLevel: values.QUARRY_LOG_LEVEL as GatewayLogLevel,
  };
}

/** Help text for `--help`: every variable with its default. */
export function gatewayConfigHelp(): string {
  return Object.entries(GATEWAY_CONFIG_VARIABLES)
    .map(
      ([name, variable]) =>
        `  ${name}${variable.default !== undefined ? ` (default ${variable.default})` : ' (required)'}\n      ${variable.help}`,
    )
    .join('\n');
}
