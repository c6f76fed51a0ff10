import { loadGatewayConfig } from '@quarry/gateway';
import { loadConfig } from '@quarry/server';
import { parseDocuments, template, valueCases, WORKLOAD_KINDS, containersOf, type K8sObject } from './render';

/**
 * The chart's environment, read by the apps' own configuration loaders: for every value set, every role's
 * pod environment (its ConfigMap, plain values, and stand-ins for Secret and downward-API values) must be
 * accepted by `loadConfig` (or the gateway's `loadGatewayConfig`), in the shape the role needs.
 */
const SECRET_STAND_INS: Record<string, string> = {
  QUARRY_METASTORE_URL: 'postgres://quarry:secret@pg.example.com:5432/quarry',
  QUARRY_CLUSTER_SECRET: 'a-cluster-secret-of-32-characters',
  QUARRY_BOOTSTRAP_TOKEN: 'xaat-0123456789abcdef',
  QUARRY_KAFKA_SASL_USERNAME: 'quarry',
  QUARRY_KAFKA_SASL_PASSWORD: 'secret',
  AWS_ACCESS_KEY_ID: 'key',
  AWS_SECRET_ACCESS_KEY: 'secret',
};

/** The environment a container of `workload` starts with. */
function environmentOf(workload: K8sObject, objects: K8sObject[]): Record<string, string> {
  const [container] = containersOf(workload) as (ReturnType<typeof containersOf>[number] & {
    envFrom?: { configMapRef?: { name: string } }[];
  })[];
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef?.name);
    Object.assign(env, map?.data ?? {});
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value.replace(/\$\((\w+)\)/g, (_m, name) => env[name] ?? '');
    else if (e.valueFrom?.secretKeyRef) env[e.name] = SECRET_STAND_INS[e.name] ?? 'x';
    else if (e.valueFrom?.fieldRef)
      env[e.name] = e.valueFrom.fieldRef.fieldPath === 'status.podIP' ? '10.0.0.7' : 'pod-0';
  }
  return env;
}

describe.each(valueCases('quarry').map((c) => [c.name, c.file] as const))(
  'charts/quarry ci/%s',
  (_name, file) => {
    const result = template('quarry', 'quarry', file);
    const objects = parseDocuments(result.stdout);
    const workloads = objects.filter((o) => WORKLOAD_KINDS.includes(o.kind));

    it.each(workloads.map((w) => [w.metadata.labels!['app.kubernetes.io/component'], w] as const))(
      '%s: the app accepts its environment',
      (role, workload) => {
        const env = environmentOf(workload, objects);
        if (role === 'gateway') {
          const config = loadGatewayConfig(env);
          for (const pool of ['ingest', 'query', 'management'] as const)
            expect(config.upstreams[pool].length).toBeGreaterThan(0);
          return;
        }
        // The role apps force QUARRY_ROLES to their own role (libs/server/src/role-main.ts).
        const config = loadConfig(role === 'standalone' ? env : { ...env, QUARRY_ROLES: role });
        expect(config.shape).toBe(role === 'standalone' ? 'embedded' : 'cluster');
        expect(config.port).toBe(8080);
        expect(config.dataDir).toBe('/data');
        if (role !== 'standalone') expect(config.advertiseUrl).toBe('http://10.0.0.7:8080');
      },
    );
  },
);
