import { parseDuration } from '@quarry/operator';

/**
 * The operator's configuration: environment variables only, parsed once at start. Each variable has its
 * default and help next to it; validation reports every bad variable at once (STYLE §7).
 */
export interface OperatorConfig {
  /** Namespace of the operator itself: the QuarryConnection credentials Secrets and the leader Lease. */
  namespace: string;
  resyncMs: number;
  host: string;
  port: number;
  workersPerKind: number;
  leaderElection: boolean;
  leaseName: string;
  /** This process in the leader election (pod name plus a random suffix). */
  identity: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

interface Variable<T> {
  default: string;
  help: string;
  parse(value: string): Parsed<T>;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(problem: string): Parsed<T> => ({ ok: false, problem });

const text = (v: string): Parsed<string> => (v.trim() === '' ? bad('must not be empty') : ok(v.trim()));
const optionalText = (v: string): Parsed<string> => ok(v.trim());
const duration = (v: string): Parsed<number> => {
  const ms = parseDuration(v);
  return ms === undefined || ms < 1_000
    ? bad('must be a duration of at least 1s, such as 30s, 5m or 1h')
    : ok(ms);
};
const integer =
  (min: number, max: number) =>
  (v: string): Parsed<number> => {
    const n = Number(v);
    return Number.isInteger(n) && n >= min && n <= max
      ? ok(n)
      : bad(`must be an integer from ${min} to ${max}`);
  };
const bool = (v: string): Parsed<boolean> =>
  ['true', '1', 'yes'].includes(v)
    ? ok(true)
    : ['false', '0', 'no'].includes(v)
      ? ok(false)
      : bad('must be true or false');

export const OPERATOR_VARIABLES = {
  QUARRY_OPERATOR_NAMESPACE: {
    default: 'quarry-system',
    help: 'Namespace the operator runs in: QuarryConnection credentials Secrets and the leader Lease live here.',
    parse: text,
  },
  QUARRY_OPERATOR_RESYNC: {
    default: '5m',
    help: 'Each QuarryConnection resyncs this often (±10 % jitter): one LIST per kind, and only missing or drifted objects are reconciled, so drift in Quarry is repaired.',
    parse: duration,
  },
  HOST: { default: '0.0.0.0', help: 'Interface of the /healthz, /readyz and /metrics server.', parse: text },
  PORT: {
    default: '8080',
    help: 'Port of the /healthz, /readyz and /metrics server.',
    parse: integer(0, 65535),
  },
  QUARRY_OPERATOR_WORKERS: {
    default: '2',
    help: 'Reconciles running at once per kind (a key is never reconciled twice at once).',
    parse: integer(1, 64),
  },
  QUARRY_OPERATOR_LEADER_ELECTION: {
    default: 'true',
    help: 'Run only while holding the Lease, so several replicas can run for fail-over.',
    parse: bool,
  },
  QUARRY_OPERATOR_LEASE_NAME: {
    default: 'quarry-operator',
    help: 'Name of the leader election Lease.',
    parse: text,
  },
  POD_NAME: {
    default: '',
    help: 'Pod name (downward API), used as the leader identity; defaults to the host name.',
    parse: optionalText,
  },
} satisfies Record<string, Variable<unknown>>;

/** Bad variables, each with what is wrong and what it is for. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(readonly problems: string[]) {
    super(`invalid operator configuration:\n  ${problems.join('\n  ')}`);
  }
}

export function loadOperatorConfig(
  env: Record<string, string | undefined>,
  hostname: string,
  random: () => number = Math.random,
): OperatorConfig {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(OPERATOR_VARIABLES) as [string, Variable<unknown>][]) {
    const raw = env[name] ?? variable.default;
    const parsed = variable.parse(raw);
    if (parsed.ok) values[name] = parsed.value;
    else problems.push(`${name}=${JSON.stringify(raw)}: ${parsed.problem} (${variable.help})`);
  }
  if (problems.length) throw new ConfigError(problems);
  const pod = (values.POD_NAME as string) || hostname;
  return {
    namespace: values.QUARRY_OPERATOR_NAMESPACE as string,
    resyncMs: values.QUARRY_OPERATOR_RESYNC as number,
    host: values.HOST as string,
    port: values.PORT as number,
    workersPerKind: values.QUARRY_OPERATOR_WORKERS as number,
    leaderElection: values.QUARRY_OPERATOR_LEADER_ELECTION as boolean,
    leaseName: values.QUARRY_OPERATOR_LEASE_NAME as string,
    identity: `${pod}_${Math.floor(random() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`,
  };
}
