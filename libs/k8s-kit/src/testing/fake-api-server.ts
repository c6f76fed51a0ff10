import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiStatusError, statusErrors } from './api-status';
import { discoveryDocument } from './discovery';
import { FaultSwitches, type FailNextOptions, type GoneDelivery, type RequestInfo } from './fault-switches';
import { kubeConfigFor } from './kube-config';
import { ObjectStore } from './object-store';
import { deleteOptions, parseJson, readBody, sendJson, successStatus } from './http-io';
import { resolveResourcePath, type ResourcePath } from './request-routing';
import { ResourceWrites } from './resource-writes';
import {
  apiVersionOf,
  BUILT_IN_RESOURCES,
  typeKeyOf,
  type KubeObject,
  type ResourceType,
} from './resource-types';
import { objectFilter } from './selectors';
import { WatchStream } from './watch-stream';

export interface FakeApiServerOptions {
  /** Custom resources to serve besides the built-ins (Namespace, Secret, ConfigMap, Event, Lease). */
  customResources?: readonly ResourceType[];
  /** Namespaces that exist from the start (default `['default']`). Objects may use others without them. */
  namespaces?: readonly string[];
  /** Delete dependents (or, with `propagationPolicy: Orphan`, drop the reference) when an owner goes. */
  garbageCollection?: boolean;
}

/** A request as the fake saw it, for tests that assert what a client sent. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  contentType?: string;
}

/** Where an object lives, for the direct (non-HTTP) accessors. `group` defaults to the core group. */
export interface ObjectRef {
  group?: string;
  plural: string;
  namespace?: string;
  name: string;
}

/**
 * A Kubernetes API server for tests, in process on 127.0.0.1: enough of the apiserver for client-node's
 * typed clients and informers (discovery, CRUD, the patch types, watch with resourceVersion and bookmarks,
 * finalizers, generation, the status subresource, owner cascade), plus switches for the faults an operator
 * must survive (dropped watches, 410 Gone, failing calls). k8s.md §9.3 lists what it imitates.
 *
 * Deliberate gaps: no strategic merge patch (415), no managedFields (apply merges over the live object),
 * no pagination (`limit` is ignored), no authentication, namespaces are not required to exist and deleting
 * one does not delete its contents.
 */
export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly store = new ObjectStore();
  private readonly faults = new FaultSwitches();
  private readonly types: ResourceType[];
  private readonly writes: ResourceWrites;
  private readonly watches = new Set<WatchStream>();

  private constructor(
    private readonly server: Server,
    options: FakeApiServerOptions,
  ) {
    this.types = [...BUILT_IN_RESOURCES, ...(options.customResources ?? [])];
    this.writes = new ResourceWrites(
      this.store,
      (apiVersion, kind) => this.types.find((t) => apiVersionOf(t) === apiVersion && t.kind === kind),
      options.garbageCollection ?? false,
    );
    for (const namespace of options.namespaces ?? ['default']) {
      this.writes.create(this.typeFor('', 'namespaces'), undefined, { metadata: { name: namespace } });
    }
  }

  static async start(options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
    const server = createServer();
    const fake = new FakeApiServer(server, options);
    server.on('request', (req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** A client-node KubeConfig whose current context points at this server. */
  kubeConfig(): KubeConfig {
    return kubeConfigFor(this.url);
  }

  /** The latest resourceVersion handed out (every write takes the next one). */
  get resourceVersion(): string {
    return String(this.store.currentRevision);
  }

  get openWatchCount(): number {
    return this.watches.size;
  }

  async stop(): Promise<void> {
    for (const watch of [...this.watches]) watch.end(true);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // --- Direct access, for arranging and asserting without a client. Writes still emit watch events. ---

  getObject(ref: ObjectRef): KubeObject | undefined {
    const type = this.typeFor(ref.group ?? '', ref.plural);
    return this.store.get(typeKeyOf(type), type.namespaced ? ref.namespace : undefined, ref.name);
  }

  listObjects(ref: Omit<ObjectRef, 'name'>): KubeObject[] {
    const type = this.typeFor(ref.group ?? '', ref.plural);
    return this.store.list(typeKeyOf(type), ref.namespace);
  }

  /** Creates an object through the same rules as a POST (admission included); type from apiVersion/kind. */
  createObject(object: KubeObject): KubeObject {
    const type = this.types.find((t) => apiVersionOf(t) === object.apiVersion && t.kind === object.kind);
    if (!type) throw new Error(`the fake API server does not serve ${object.apiVersion} ${object.kind}`);
    return this.writes.create(
      type,
      type.namespaced ? (object.metadata?.namespace ?? 'default') : undefined,
      object,
    );
  }

  // --- Fault switches. ---

  /** Ends every open watch now: cleanly (clients re-watch from their last resourceVersion) or abruptly. */
  dropWatches(options: { abrupt?: boolean } = {}): void {
    for (const watch of [...this.watches]) watch.end(options.abrupt ?? false);
  }

  /** The next N matching calls answer `code` (default 500) with an apiserver `Status`. */
  failNext(count: number, options: FailNextOptions = {}): void {
    this.faults.failNext(count, options);
  }

  /** The next watch request is told its resourceVersion is too old (410 Gone), so the client relists. */
  goneOnNextWatch(delivery: GoneDelivery = 'event'): void {
    this.faults.goneOnNextWatch(delivery);
  }

  /** Disarms every fault not yet consumed (release a watch held down with `failNext(Infinity, …)`). */
  clearFaults(): void {
    this.faults.clear();
  }

  /** Forgets the change history, like an etcd compaction: watches from older resourceVersions get a 410. */
  compact(): void {
    this.store.compact();
  }

  /** Sends a BOOKMARK with the current resourceVersion to every watch that allowed bookmarks. */
  sendBookmarks(): void {
    for (const watch of this.watches) watch.bookmark(this.store.currentRevision);
  }

  // --- HTTP. ---

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const isWatch = method === 'GET' && ['true', '1'].includes(url.searchParams.get('watch') ?? '');
    this.requests.push({
      method,
      path: url.pathname,
      query: url.search,
      contentType: req.headers['content-type'],
    });
    try {
      const body = await readBody(req);
      const info: RequestInfo = {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        isWatch,
      };
      const injected = this.faults.takeFailure(info);
      if (injected) throw injected;

      const discovery = method === 'GET' ? discoveryDocument(url.pathname, this.types) : undefined;
      if (discovery) return sendJson(res, 200, discovery);

      const target = resolveResourcePath(url.pathname, this.types);
      if (isWatch) return this.watch(target, url.searchParams, res);
      const answer = this.dispatch(method, target, url.searchParams, req.headers['content-type'] ?? '', body);
      sendJson(res, answer.code, answer.body);
    } catch (error) {
      const status = error instanceof ApiStatusError ? error : ApiStatusError.forCode(500, String(error));
      if (!res.headersSent) sendJson(res, status.code, status.toBody());
      else res.end();
    }
  }

  private dispatch(
    method: string,
    target: ResourcePath,
    query: URLSearchParams,
    contentType: string,
    body: string,
  ): { code: number; body: unknown } {
    const { type, namespace, name, subresource } = target;
    if (name === undefined) {
      if (method === 'GET') return { code: 200, body: this.list(target, query) };
      if (method === 'POST') {
        if (type.namespaced && namespace === undefined)
          throw statusErrors.methodNotAllowed('create needs a namespace in the path');
        return { code: 201, body: this.writes.create(type, namespace, parseJson(body)) };
      }
      throw statusErrors.methodNotAllowed(
        `${method} on a collection is not supported by the fake API server`,
      );
    }
    switch (method) {
      case 'GET': {
        const found = this.store.get(typeKeyOf(type), namespace, name);
        if (!found) throw statusErrors.notFound(type, name);
        return { code: 200, body: found };
      }
      case 'PUT':
        return { code: 200, body: this.writes.replace(type, namespace, name, parseJson(body), subresource) };
      case 'PATCH': {
        const patch = {
          contentType,
          body: parseJson(body),
          fieldManager: query.get('fieldManager') ?? undefined,
        };
        return { code: 200, body: this.writes.patch(type, namespace, name, patch, subresource) };
      }
      case 'DELETE': {
        if (subresource) throw statusErrors.methodNotAllowed('DELETE on a subresource');
        const outcome = this.writes.delete(type, namespace, name, deleteOptions(body, query));
        const builtIn = BUILT_IN_RESOURCES.includes(type);
        const answer = outcome.removed && builtIn ? successStatus(type, outcome.object) : outcome.object;
        return { code: 200, body: answer };
      }
      default:
        throw statusErrors.methodNotAllowed(`${method} is not supported`);
    }
  }

  private list(target: ResourcePath, query: URLSearchParams) {
    const filter = objectFilter(query.get('labelSelector'), query.get('fieldSelector'));
    const items = this.store.list(typeKeyOf(target.type), target.namespace).filter((item) => filter(item));
    return {
      apiVersion: apiVersionOf(target.type),
      kind: `${target.type.kind}List`,
      metadata: { resourceVersion: String(this.store.currentRevision) },
      items,
    };
  }

  private watch(target: ResourcePath, query: URLSearchParams, res: ServerResponse): void {
    if (target.name !== undefined)
      throw statusErrors.methodNotAllowed('watch a collection, not a single object');
    const filter = objectFilter(query.get('labelSelector'), query.get('fieldSelector'));
    const gone = this.faults.takeGoneWatch();
    if (gone === 'http') throw statusErrors.gone('too old resource version (injected)');

    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    // Without this flush client-node's informer start() waits for headers until the first event arrives.
    res.flushHeaders();
    const stream = new WatchStream(
      res,
      {
        type: target.type,
        typeKey: typeKeyOf(target.type),
        namespace: target.namespace,
        filter,
        bookmarks: query.get('allowWatchBookmarks') === 'true',
      },
      (closed) => this.watches.delete(closed),
    );
    const requested = query.get('resourceVersion');
    const from = requested && requested !== '0' ? Number(requested) : undefined;
    const replay = from === undefined ? [] : this.store.eventsAfter(from);
    if (gone === 'event' || replay === undefined) {
      const oldest = this.store.oldestWatchableRevision;
      stream.fail(statusErrors.gone(`too old resource version: ${requested} (${oldest})`).toBody());
      return;
    }
    // Replay and subscription happen in one synchronous step, so no change falls between them.
    this.watches.add(stream);
    if (from === undefined) {
      for (const object of this.store.list(typeKeyOf(target.type), target.namespace))
        stream.deliverExisting(object);
    }
    for (const event of replay) stream.deliver(event);
    const unsubscribe = this.store.subscribe((event) => stream.deliver(event));
    res.on('close', unsubscribe);
    const timeoutSeconds = Number(query.get('timeoutSeconds') ?? 0);
    if (timeoutSeconds > 0) {
      const timer = setTimeout(() => stream.end(false), timeoutSeconds * 1000);
      res.on('close', () => clearTimeout(timer));
    }
  }

  private typeFor(group: string, plural: string): ResourceType {
    const type = this.types.find((t) => t.group === group && t.plural === plural);
    if (!type) throw new Error(`the fake API server does not serve ${plural}${group ? '.' + group : ''}`);
    return type;
  }
}
