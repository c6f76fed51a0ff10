import { RequestMethod } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';

/** What `@Access` declares (libs/server/src/auth/access.decorator.ts), as read back from metadata. */
export interface AccessRuleMeta {
  tokens: 'api' | 'any';
  org?: [string, string];
  dataset?: { param: string; capability: string; action: string };
  noOrgRequired?: boolean;
  public?: boolean;
}

export interface RouteEntry {
  /** `GET /v2/rbac/roles/:id` (Nest path syntax). */
  key: string;
  method: string;
  path: string;
  rule: AccessRuleMeta | undefined;
  /** The reason of an operation answered 501 on purpose (`@NotImplemented`). */
  notImplemented?: string;
}

// Metadata keys of @nestjs/common (constants PATH_METADATA, METHOD_METADATA) and of Quarry's decorators.
const PATH = 'path';
const METHOD = 'method';
const ACCESS = 'quarry:access';
const NOT_IMPLEMENTED = 'quarry:not-implemented';

const joinPath = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/');

/** Every HTTP route of a running Nest app with its access rule, from the controllers' metadata. */
export function routeTable(app: INestApplication): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const seen = new Set<unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const base = (Reflect.getMetadata(PATH, controller) as string | string[] | undefined) ?? '';
      const classRule = Reflect.getMetadata(ACCESS, controller) as AccessRuleMeta | undefined;
      const proto = controller.prototype as object;
      for (const name of Object.getOwnPropertyNames(proto)) {
        // The descriptor, not `proto[name]`: reading a getter on the prototype would run it.
        const handler = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const paths = Reflect.getMetadata(PATH, handler) as string | string[] | undefined;
        const methodCode = Reflect.getMetadata(METHOD, handler) as RequestMethod | undefined;
        if (paths === undefined || methodCode === undefined) continue;
        const method = RequestMethod[methodCode];
        for (const b of Array.isArray(base) ? base : [base]) {
          for (const p of Array.isArray(paths) ? paths : [paths]) {
            const path = joinPath(b, p);
            routes.push({
              key: `${method} ${path}`,
              method,
              path,
              rule: (Reflect.getMetadata(ACCESS, handler) as AccessRuleMeta | undefined) ?? classRule,
              notImplemented: Reflect.getMetadata(NOT_IMPLEMENTED, handler) as string | undefined,
            });
          }
        }
      }
    }
  }
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}
