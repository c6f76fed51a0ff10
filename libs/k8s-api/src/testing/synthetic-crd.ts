/**
 * A one-version CRD around a hand-written spec schema, for tests of the admission and the lint that need
 * shapes the real Quarry kinds do not have (rules inside list-maps, broken rules, missing bounds).
 */
import type { CustomResourceDefinition, JsonSchemaProps } from '../crd';
import type { PrinterColumn } from '../kind';

export const SYNTHETIC_API_VERSION = 'example.dev/v1';

export function syntheticCrd(
  spec: JsonSchemaProps,
  printerColumns: PrinterColumn[] = [],
): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.dev' },
    spec: {
      group: 'example.dev',
      names: {
        kind: 'Widget',
        listKind: 'WidgetList',
        plural: 'widgets',
        singular: 'widget',
        shortNames: [],
        categories: [],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { metadata: { type: 'object' }, spec } } },
          subresources: { status: {} },
          additionalPrinterColumns: printerColumns,
        },
      ],
    },
  };
}

export function widget(spec: unknown, name = 'w'): Record<string, unknown> {
  return { apiVersion: SYNTHETIC_API_VERSION, kind: 'Widget', metadata: { name }, spec };
}
