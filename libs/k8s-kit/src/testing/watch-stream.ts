import type { ServerResponse } from 'node:http';
import type { StatusBody } from './api-status';
import type { StoredEvent } from './object-store';
import { apiVersionOf, type KubeObject, type ResourceType } from './resource-types';
import type { ObjectFilter } from './selectors';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchScope {
  type: ResourceType;
  typeKey: string;
  /** Only this namespace, or all of them. */
  namespace?: string;
  filter: ObjectFilter;
  bookmarks: boolean;
}

/**
 * One open watch: newline-delimited JSON events on a chunked response, as the apiserver streams them.
 * With a selector, a change that moves an object into the selection arrives as ADDED and one that moves
 * it out as DELETED, so a selecting client's cache stays exact.
 */
export class WatchStream {
  private open = true;

  constructor(
    private readonly response: ServerResponse,
    readonly scope: WatchScope,
    private readonly onClose: (stream: WatchStream) => void,
  ) {
    response.on('close', () => this.closed());
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Sends what the watch should see of a change, if anything. */
  deliver(event: StoredEvent): void {
    if (event.typeKey !== this.scope.typeKey) return;
    if (this.scope.namespace !== undefined && event.object.metadata?.namespace !== this.scope.namespace)
      return;
    const now = this.scope.filter(event.object);
    if (event.type !== 'MODIFIED') {
      if (now) this.send(event.type, event.object);
      return;
    }
    const before = this.scope.filter(event.previous);
    if (before && now) this.send('MODIFIED', event.object);
    else if (now) this.send('ADDED', event.object);
    else if (before) this.send('DELETED', event.object);
  }

  /** A synthetic ADDED for the current state, sent when a watch starts without a resourceVersion. */
  deliverExisting(object: KubeObject): void {
    if (this.scope.filter(object)) this.send('ADDED', object);
  }

  bookmark(revision: number): void {
    if (!this.scope.bookmarks) return;
    this.send('BOOKMARK', {
      apiVersion: apiVersionOf(this.scope.type),
      kind: this.scope.type.kind,
      metadata: { resourceVersion: String(revision) },
    });
  }

  /** Ends the watch with an ERROR event, as the apiserver does for a resourceVersion it no longer has. */
  fail(status: StatusBody): void {
    this.send('ERROR', status as unknown as KubeObject);
    this.end(false);
  }

  /** Ends the response cleanly, or (abrupt) destroys the socket as a dying apiserver or load balancer would. */
  end(abrupt: boolean): void {
    if (!this.open) return;
    if (abrupt) this.response.destroy();
    else this.response.end();
    this.closed();
  }

  private send(type: WatchEventType, object: KubeObject): void {
    if (!this.open) return;
    this.response.write(JSON.stringify({ type, object }) + '\n');
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    this.onClose(this);
  }
}
