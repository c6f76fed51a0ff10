import { parseDuration } from './duration';
import type { KubeObjects } from './kube-objects.port';
import type { ManagementApi } from './management-api.port';
import type { ConnectionRef, QuarryConnectionSpec } from '@quarry/k8s-api';

/** What a reconciler needs to talk to one management API. */
export interface Connection {
  name: string;
  /** Management API base URL (`/v2` lives under it); also written into token Secrets. */
  url: string;
  token: string;
  orgId?: string;
  defaultRegion?: string;
  timeoutMs: number;
  /** `spec.tls`: a private CA (PEM, from its Secret) and whether to skip verification. */
  tls?: ConnectionTls;
}

export interface ConnectionTls {
  ca?: string;
  insecureSkipVerify: boolean;
}

/** The connection cannot be used yet: missing object, missing Secret or key, bad timeout. */
export class ConnectionNotReadyError extends Error {
  override readonly name = 'ConnectionNotReadyError';
}

export const DEFAULT_CONNECTION = 'default';
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Resolves `spec.connectionRef` to a `Connection`: the cluster-scoped QuarryConnection plus its credentials
 * Secret, which lives in the operator's own namespace (so users of other namespaces cannot read it).
 */
export class ConnectionResolver {
  constructor(
    private readonly kube: KubeObjects,
    /** `QUARRY_OPERATOR_NAMESPACE`. */
    private readonly operatorNamespace: string,
  ) {}

  async resolve(ref: ConnectionRef | undefined): Promise<Connection> {
    const name = ref?.name || DEFAULT_CONNECTION;
    const connection = await this.kube.get('QuarryConnection', undefined, name);
    if (!connection) throw new ConnectionNotReadyError(`QuarryConnection "${name}" does not exist`);
    const { url, credentialsSecretRef, orgId, defaultRegion, requestTimeout, tls } = connection.spec;
    const key = credentialsSecretRef.key || 'token';
    const secret = await this.kube.getSecret(this.operatorNamespace, credentialsSecretRef.name);
    if (!secret) {
      throw new ConnectionNotReadyError(
        `Secret ${this.operatorNamespace}/${credentialsSecretRef.name} of QuarryConnection "${name}" does not exist`,
      );
    }
    const token = secret.data[key]?.trim();
    if (!token) {
      throw new ConnectionNotReadyError(
        `Secret ${this.operatorNamespace}/${credentialsSecretRef.name} has no key "${key}" (QuarryConnection "${name}")`,
      );
    }
    const timeoutMs = requestTimeout ? parseDuration(requestTimeout) : DEFAULT_TIMEOUT_MS;
    if (timeoutMs === undefined || timeoutMs <= 0) {
      throw new ConnectionNotReadyError(
        `QuarryConnection "${name}" has an invalid requestTimeout "${requestTimeout}" (use e.g. 10s)`,
      );
    }
    return { name, url, token, orgId, defaultRegion, timeoutMs, tls: await this.tlsOf(name, tls) };
  }

  /** `spec.tls` with the CA bundle read from its Secret (in the operator's namespace, like the token). */
  private async tlsOf(name: string, tls: QuarryConnectionSpec['tls']): Promise<ConnectionTls | undefined> {
    if (!tls) return undefined;
    const insecureSkipVerify = tls.insecureSkipVerify ?? false;
    if (!tls.caSecretRef) return { insecureSkipVerify };
    const { name: secretName, key = 'ca.crt' } = tls.caSecretRef;
    const secret = await this.kube.getSecret(this.operatorNamespace, secretName);
    const ca = secret?.data[key]?.trim();
    if (!ca || !ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw new ConnectionNotReadyError(
        `Secret ${this.operatorNamespace}/${secretName} has no PEM CA bundle under key "${key}" (QuarryConnection "${name}" spec.tls.caSecretRef)`,
      );
    }
    return { ca, insecureSkipVerify };
  }
}

/** Builds the API client of a connection (the HTTP adapter in production, a fake in tests). */
export type ManagementApiFactory = (connection: Connection) => ManagementApi;

/**
 * Reuses one client per connection name while its URL, token, org and timeout stay the same, and builds a
 * new one when the Secret or the connection changes (rotated credentials take effect on the next reconcile).
 */
export function cachedFactory(build: ManagementApiFactory): ManagementApiFactory {
  const cache = new Map<string, { fingerprint: string; api: ManagementApi }>();
  return (connection) => {
    const fingerprint = JSON.stringify([
      connection.url,
      connection.token,
      connection.orgId,
      connection.timeoutMs,
      connection.tls,
    ]);
    const hit = cache.get(connection.name);
    if (hit && hit.fingerprint === fingerprint) return hit.api;
    const api = build(connection);
    cache.set(connection.name, { fingerprint, api });
    return api;
  };
}
