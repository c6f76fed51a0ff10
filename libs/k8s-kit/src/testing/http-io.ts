import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusErrors } from './api-status';
import type { DeleteOptions, PropagationPolicy } from './resource-writes';
import type { KubeObject, ResourceType } from './resource-types';

/** Reading requests and writing JSON answers the way the apiserver does. */

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function parseJson(body: string): unknown {
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    // Apply patches may be YAML in general; client-node sends JSON (valid YAML), which is all the fake reads.
    throw statusErrors.badRequest(
      'the fake API server reads request bodies (apply patches included) as JSON only',
    );
  }
}

export function deleteOptions(body: string, query: URLSearchParams): DeleteOptions {
  const fromBody = (parseJson(body) ?? {}) as DeleteOptions;
  const policy = query.get('propagationPolicy') ?? fromBody.propagationPolicy;
  return { ...fromBody, propagationPolicy: (policy ?? undefined) as PropagationPolicy | undefined };
}

export function successStatus(type: ResourceType, object: KubeObject) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: object.metadata?.name, group: type.group, kind: type.plural, uid: object.metadata?.uid },
  };
}

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
