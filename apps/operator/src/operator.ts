import {
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  type V1Secret,
} from '@kubernetes/client-node';
import {
  API_GROUP,
  API_VERSION as CRD_VERSION,
  DATASET_NAMES,
  QUARRY_CONNECTION_NAMES,
  ROLE_NAMES,
  TOKEN_NAMES,
} from '@quarry/k8s-api';
import {
  LeaderElector,
  ResilientInformer,
  WorkQueue,
  collectionPath,
  objectKey,
  parseObjectKey,
  type Selectors,
} from '@quarry/k8s-kit';
import {
  ConnectionReconciler,
  ConnectionResolver,
  HttpManagementApi,
  KubeObjectsAdapter,
  LABELS,
  MANAGED_BY,
  cachedFactory,
  datasetReconciler,
  roleReconciler,
  systemClock,
  tokenReconciler,
  type AllResources,
  type ManagedKind,
  type ManagedReconciler,
  type ObjectCaches,
  type ReconcileDeps,
  type ResourceKind,
} from '@quarry/operator';
import type { OperatorConfig } from './config';
import { startHealthServer, type HealthServer } from './health-server';
import { KindController } from './kind-controller';
import { OperatorMetrics } from './metrics';

export type Log = (
  level: 'info' | 'warn' | 'error',
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface RunningOperator {
  health: HealthServer;
  /** Resolves when the operator stopped; `lost` means leadership was lost and the process should exit non-zero. */
  finished: Promise<'stopped' | 'lost'>;
  stop(): Promise<void>;
}

const NAMES: Record<ResourceKind, { plural: string }> = {
  Dataset: DATASET_NAMES,
  Role: ROLE_NAMES,
  Token: TOKEN_NAMES,
  QuarryConnection: QUARRY_CONNECTION_NAMES,
};
const MANAGED: ManagedKind[] = ['Dataset', 'Role', 'Token'];

/**
 * The composition root (STYLE §1): one informer per kind plus one for the Secrets the operator owns, one
 * work queue and controller per managed kind, the reconcilers from `@quarry/operator`, and leader election.
 * Informers only enqueue keys; followers keep their caches warm and start workers on becoming leader.
 */
export async function startOperator(
  config: OperatorConfig,
  kubeConfig: KubeConfig,
  log: Log,
): Promise<RunningOperator> {
  const customObjects = kubeConfig.makeApiClient(CustomObjectsApi);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const metrics = new OperatorMetrics();

  const informers = {} as { [K in ResourceKind]: ResilientInformer<AllResources[K] & KubernetesObject> };
  for (const kind of Object.keys(NAMES) as ResourceKind[]) {
    const type = { group: API_GROUP, version: CRD_VERSION, plural: NAMES[kind].plural };
    informers[kind] = new ResilientInformer({
      kubeConfig,
      path: collectionPath(type),
      list: (selectors: Selectors) =>
        customObjects.listClusterCustomObject({ ...type, ...selectors }) as Promise<
          KubernetesListObject<never>
        >,
      rewatchEveryMs: 30 * 60_000,
      onError: (error, restartInMs) =>
        log('warn', `Watch of ${kind} failed`, { error: String(error), restartInMs }),
    }) as never;
  }
  // Only the Secrets the operator wrote: it needs their events (a deleted token Secret means rotation),
  // not a cache of every Secret in the cluster.
  const secrets = new ResilientInformer<V1Secret>({
    kubeConfig,
    path: '/api/v1/secrets',
    labelSelector: `${LABELS.managedBy}=${MANAGED_BY}`,
    list: (selectors) => core.listSecretForAllNamespaces(selectors),
    rewatchEveryMs: 30 * 60_000,
    onError: (error, restartInMs) =>
      log('warn', 'Watch of Secrets failed', { error: String(error), restartInMs }),
  });

  for (const kind of Object.keys(informers) as ResourceKind[])
    metrics.watchInformer(kind, () => informers[kind].restarts);
  metrics.watchInformer('Secret', () => secrets.restarts);

  const caches: ObjectCaches = {
    Dataset: cacheOf(informers.Dataset),
    Role: cacheOf(informers.Role),
    Token: cacheOf(informers.Token),
    QuarryConnection: cacheOf(informers.QuarryConnection),
  };
  const kube = new KubeObjectsAdapter({
    customObjects,
    core,
    caches,
    clock: systemClock,
    eventNamespace: config.namespace,
    onEventError: (error) => log('warn', 'Recording an Event failed', { error: String(error) }),
  });
  const deps: ReconcileDeps = {
    kube,
    connections: new ConnectionResolver(kube, config.namespace),
    apiFor: cachedFactory(
      (connection) =>
        new HttpManagementApi({
          baseUrl: connection.url,
          token: connection.token,
          orgId: connection.orgId,
          timeoutMs: connection.timeoutMs,
          tls: connection.tls,
        }),
    ),
    clock: systemClock,
    resyncMs: config.resyncMs,
    log,
  };
  const reconcilers: { [K in ManagedKind]: ManagedReconciler<K> } = {
    Dataset: datasetReconciler(deps),
    Role: roleReconciler(deps),
    Token: tokenReconciler(deps),
  };
  const connectionReconciler = new ConnectionReconciler({
    ...deps,
    onProbe: (connection, up) => metrics.setManagementApiUp(connection, up),
  });
  const connectionQueue = new WorkQueue<string>();
  metrics.watchQueue('QuarryConnection', () => connectionQueue.depth);
  const queues = {} as Record<ManagedKind, WorkQueue<string>>;
  for (const kind of MANAGED) {
    queues[kind] = new WorkQueue<string>();
    metrics.watchQueue(kind, () => queues[kind].depth);
    const enqueue = (object: KubernetesObject) => queues[kind].add(objectKey(object));
    informers[kind].on('add', enqueue).on('update', enqueue).on('delete', enqueue);
  }
  // A connection change (URL, credentials Secret) concerns every object that may use it.
  const enqueueAll = () => {
    for (const kind of MANAGED)
      for (const object of informers[kind].list()) queues[kind].add(objectKey(object));
  };
  const enqueueConnection = (connection: KubernetesObject) => {
    connectionQueue.add(objectKey(connection));
    enqueueAll();
  };
  informers.QuarryConnection.on('add', enqueueConnection)
    .on('update', enqueueConnection)
    .on('delete', enqueueConnection);
  const enqueueOwner = (secret: V1Secret) => {
    const owner = secret.metadata?.labels?.[LABELS.token];
    if (owner && secret.metadata?.namespace) queues.Token.add(`${secret.metadata.namespace}/${owner}`);
  };
  secrets.on('add', enqueueOwner).on('update', enqueueOwner).on('delete', enqueueOwner);

  const allInformers = [...Object.values(informers), secrets] as {
    start(): void;
    stop(): Promise<void>;
    hasSynced: boolean;
    synced: Promise<void>;
  }[];
  for (const informer of allInformers) informer.start();
  const health = await startHealthServer({
    host: config.host,
    port: config.port,
    ready: () => allInformers.every((i) => i.hasSynced),
    registry: metrics.registry,
  });
  await Promise.all(allInformers.map((i) => i.synced));
  log('info', 'Caches synced', { kinds: Object.keys(informers) });

  const controllers = [
    ...MANAGED.map(
      (kind) =>
        new KindController({
          kind,
          queue: queues[kind],
          reconcile: (key) => reconcilers[kind].reconcile(key),
          parseKey: parseObjectKey,
          onReconciled: (k, seconds, failed) => metrics.reconciled(k, seconds, failed),
          log,
        }),
    ),
    new KindController({
      kind: 'QuarryConnection',
      queue: connectionQueue,
      reconcile: (key) => connectionReconciler.reconcile(key),
      parseKey: parseObjectKey,
      onReconciled: (k, seconds, failed) => metrics.reconciled(k, seconds, failed),
      log,
    }),
  ];
  const allQueues = [...Object.values(queues), connectionQueue];
  const runWorkers = () => Promise.all(controllers.map((c) => c.run(config.workersPerKind)));

  const stopping = new AbortController();
  let finished: Promise<'stopped' | 'lost'>;
  if (!config.leaderElection) {
    metrics.setLeader(true);
    finished = runWorkers().then(() => 'stopped' as const);
  } else {
    const elector = new LeaderElector({
      leases: kubeConfig.makeApiClient(CoordinationV1Api),
      namespace: config.namespace,
      name: config.leaseName,
      identity: config.identity,
      onStartedLeading: () => {
        metrics.setLeader(true);
        log('info', 'Started leading', { identity: config.identity });
        void runWorkers();
      },
      onStoppedLeading: () => {
        metrics.setLeader(false);
        for (const queue of allQueues) queue.shutdown();
      },
      onNewLeader: (identity) => log('info', 'Observed a new leader', { identity }),
      onError: (error) => log('warn', 'Leader election call failed', { error: String(error) }),
    });
    finished = elector.run(stopping.signal).then((outcome) => (outcome === 'lost' ? 'lost' : 'stopped'));
  }

  return {
    health,
    finished,
    async stop() {
      stopping.abort();
      for (const queue of allQueues) queue.shutdown();
      await finished;
      await Promise.all(allInformers.map((i) => i.stop()));
      await health.close();
    },
  };
}

function cacheOf<T>(informer: {
  get(name: string, namespace?: string): unknown;
  list(): readonly unknown[];
}) {
  return {
    get: (name: string, namespace?: string) => informer.get(name, namespace) as T | undefined,
    list: () => informer.list() as readonly T[],
  };
}
