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
  DEFAULT_CONNECTION,
  HttpManagementApi,
  KubeObjectsAdapter,
  LABELS,
  MANAGED_BY,
  NameIndex,
  cachedFactory,
  datasetReconciler,
  roleReconciler,
  systemClock,
  tokenReconciler,
  type AllResources,
  type ClaimedKind,
  type ManagedKind,
  type ObjectKey,
  type ManagedReconciler,
  type ObjectCaches,
  type ReconcileDeps,
  type QuarryConnectionResource,
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
 * The composition root (STYLE §1): one informer per kind, one for the Secrets the operator owns and one
 * for the Secrets of its own namespace (connection credentials and CAs), one work queue and controller
 * per managed kind, the reconcilers from `@quarry/operator`, and leader election. Informers only enqueue
 * keys; followers keep their caches warm and start workers on becoming leader. The full resync is the
 * QuarryConnection's timed requeue: one LIST per kind per connection, enqueueing only drifted keys.
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

  // The operator's own namespace: QuarryConnection credentials and CA Secrets, whose changes must reach
  // the connections at once rather than at their next retry. Namespace-scoped, so it needs no more than
  // list/watch of Secrets there.
  const connectionSecrets = new ResilientInformer<V1Secret>({
    kubeConfig,
    path: `/api/v1/namespaces/${config.namespace}/secrets`,
    list: (selectors) => core.listNamespacedSecret({ namespace: config.namespace, ...selectors }),
    rewatchEveryMs: 30 * 60_000,
    onError: (error, restartInMs) =>
      log('warn', `Watch of Secrets in ${config.namespace} failed`, { error: String(error), restartInMs }),
  });

  for (const kind of Object.keys(informers) as ResourceKind[])
    metrics.watchInformer(kind, () => informers[kind].restarts);
  metrics.watchInformer('Secret', () => secrets.restarts);
  metrics.watchInformer('ConnectionSecret', () => connectionSecrets.restarts);

  // The index on effective names that name-conflict checks read (k8s.md §3.5 step 5). Its handlers are
  // registered before the enqueueing ones, so a reconcile never sees the cache ahead of the index.
  const names = new NameIndex();

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
    names,
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
  const connectionQueue = new WorkQueue<string>();
  metrics.watchQueue('QuarryConnection', () => connectionQueue.depth);
  const queues = {} as Record<ManagedKind, WorkQueue<string>>;
  const keyOf = (key: ObjectKey) => objectKey({ metadata: key });
  for (const kind of MANAGED) {
    queues[kind] = new WorkQueue<string>();
    metrics.watchQueue(kind, () => queues[kind].depth);
  }
  for (const kind of ['Dataset', 'Role'] as ClaimedKind[]) {
    // A CR that took, changed or released a name may change who owns it: its rivals look again.
    const requeue = (rivals: ObjectKey[]) => {
      for (const rival of rivals) queues[kind].add(keyOf(rival));
    };
    informers[kind]
      .on('add', (cr) => requeue(names.upsert(kind, cr as never)))
      .on('update', (cr) => requeue(names.upsert(kind, cr as never)))
      .on('delete', (cr) => requeue(names.remove(kind, cr as never)));
  }
  for (const kind of MANAGED) {
    const enqueue = (object: KubernetesObject) => queues[kind].add(objectKey(object));
    informers[kind].on('add', enqueue).on('update', enqueue).on('delete', enqueue);
  }
  const connectionReconciler = new ConnectionReconciler({
    ...deps,
    onProbe: (connection, up) => metrics.setManagementApiUp(connection, up),
    // Each connection's timed requeue is the full resync of its CRs.
    enqueue: (kind, key) => queues[kind].add(keyOf(key)),
    onResync: (connection, report) => {
      if (report.targets.length === 0 && report.failures.length === 0) return;
      log('info', 'Resynced a connection', {
        connection,
        listed: report.listed,
        enqueued: report.targets.map((t) => `${t.kind} ${keyOf(t.key)}: ${t.why}`),
        failures: report.failures,
      });
    },
  });
  // The connection itself decides what its change means for its CRs (spec changed: all of them; now
  // Ready: the ones still waiting for it), so its events enqueue only the connection.
  const enqueueConnection = (connection: KubernetesObject) => connectionQueue.add(objectKey(connection));
  // A deleted connection has no reconcile left to speak for it: its CRs report ConnectionNotReady.
  const enqueueUsersOf = (connection: KubernetesObject) => {
    for (const kind of MANAGED)
      for (const cr of informers[kind].list())
        if ((cr.spec.connectionRef?.name || DEFAULT_CONNECTION) === connection.metadata?.name)
          queues[kind].add(objectKey(cr));
  };
  informers.QuarryConnection.on('add', enqueueConnection)
    .on('update', enqueueConnection)
    .on('delete', enqueueConnection)
    .on('delete', enqueueUsersOf);
  // A credentials or CA Secret created, rotated or deleted: the connections naming it probe again.
  const enqueueUsers = (secret: V1Secret) => {
    const name = secret.metadata?.name;
    for (const connection of informers.QuarryConnection.list() as QuarryConnectionResource[]) {
      const { credentialsSecretRef, tls } = connection.spec;
      if (credentialsSecretRef.name === name || tls?.caSecretRef?.name === name)
        connectionQueue.add(objectKey(connection));
    }
  };
  connectionSecrets.on('add', enqueueUsers).on('update', enqueueUsers).on('delete', enqueueUsers);
  const enqueueOwner = (secret: V1Secret) => {
    const owner = secret.metadata?.labels?.[LABELS.token];
    if (owner && secret.metadata?.namespace) queues.Token.add(`${secret.metadata.namespace}/${owner}`);
  };
  secrets.on('add', enqueueOwner).on('update', enqueueOwner).on('delete', enqueueOwner);

  const allInformers = [...Object.values(informers), secrets, connectionSecrets] as {
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
