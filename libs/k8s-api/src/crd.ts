/**
 * Builds `apiextensions.k8s.io/v1` CustomResourceDefinitions from the kind modules. Pure: the same kinds
 * always give the same objects, which `sync-crds` writes to `crds/` and the drift test compares.
 */
import { API_GROUP, API_VERSION, CATEGORY, crdName } from './group';
import { DATASET } from './dataset';
import { QUARRY_CONNECTION } from './quarry-connection';
import { ROLE } from './role';
import { TOKEN } from './token';
import type { KindDefinition, PrinterColumn } from './kind';

/** Every Quarry kind, in the order the CRD files are listed. */
export const KINDS: readonly KindDefinition[] = [QUARRY_CONNECTION, DATASET, ROLE, TOKEN];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An OpenAPI v3 schema node as a CRD carries it (JSONSchemaProps); plain JSON, no TypeBox symbols. */
export interface JsonSchemaProps {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  properties?: Record<string, JsonSchemaProps>;
  additionalProperties?: JsonSchemaProps;
  items?: JsonSchemaProps;
  required?: string[];
  default?: JsonValue;
  [keyword: string]: unknown;
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames: string[];
      categories: string[];
    };
    scope: 'Namespaced' | 'Cluster';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: JsonSchemaProps };
      subresources: { status: Record<string, never> };
      additionalPrinterColumns: PrinterColumn[];
    }[];
  };
}

/** Keys first in this order, so a generated schema reads type → docs → shape → bounds → rules. */
const KEY_ORDER = [
  'type',
  'format',
  'description',
  'default',
  'enum',
  'required',
  'properties',
  'additionalProperties',
  'items',
];

function rankOf(keyword: string): number {
  const known = KEY_ORDER.indexOf(keyword);
  if (known >= 0) return known;
  return keyword.startsWith('x-kubernetes-') ? KEY_ORDER.length + 1 : KEY_ORDER.length;
}

/** Reorders the keywords of a schema node and of its sub-schemas; property names keep their order. */
function withCanonicalKeyOrder(schema: JsonSchemaProps): JsonSchemaProps {
  const entries = Object.entries(schema).sort(([a], [b]) => rankOf(a) - rankOf(b));
  const out: JsonSchemaProps = {};
  for (const [keyword, value] of entries) {
    if (keyword === 'properties') {
      const properties: Record<string, JsonSchemaProps> = {};
      for (const [name, sub] of Object.entries(value as Record<string, JsonSchemaProps>)) {
        properties[name] = withCanonicalKeyOrder(sub);
      }
      out.properties = properties;
    } else if (keyword === 'items' || keyword === 'additionalProperties') {
      out[keyword] = withCanonicalKeyOrder(value as JsonSchemaProps);
    } else {
      out[keyword] = value;
    }
  }
  return out;
}

/** Drops TypeBox's symbol keys (and anything else JSON cannot carry) and orders keys canonically. */
function plainJson(value: unknown): JsonSchemaProps {
  return withCanonicalKeyOrder(JSON.parse(JSON.stringify(value)) as JsonSchemaProps);
}

/** The whole object's schema: the envelope (apiVersion, kind, metadata) around spec and status. */
export function openApiSchemaOf(definition: KindDefinition): JsonSchemaProps {
  const spec = plainJson(definition.spec);
  const schema: JsonSchemaProps = {
    type: 'object',
    description: definition.description,
    properties: {
      apiVersion: { type: 'string', description: 'APIVersion of this object: quarry.dev/v1alpha1.' },
      kind: { type: 'string', description: `Kind of this object: ${definition.names.kind}.` },
      metadata: { type: 'object' },
      spec: definition.specRequired ? spec : { ...spec, default: {} },
      status: plainJson(definition.status),
    },
  };
  if (definition.specRequired) schema.required = ['spec'];
  return schema;
}

export function buildCrd(definition: KindDefinition): CustomResourceDefinition {
  const { names } = definition;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(names) },
    spec: {
      group: API_GROUP,
      names: {
        kind: names.kind,
        listKind: names.listKind,
        plural: names.plural,
        singular: names.singular,
        shortNames: [...names.shortNames],
        categories: [CATEGORY],
      },
      scope: names.scope,
      versions: [
        {
          name: API_VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: openApiSchemaOf(definition) },
          subresources: { status: {} },
          additionalPrinterColumns: definition.printerColumns.map((column) => ({ ...column })),
        },
      ],
    },
  };
}

/** The CRDs of every Quarry kind. */
export function buildAllCrds(): CustomResourceDefinition[] {
  return KINDS.map(buildCrd);
}
