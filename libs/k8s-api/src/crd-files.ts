/**
 * The CRDs as the files under `crds/`: one YAML document per CRD, named `<plural>.quarry.dev.yaml`, with a
 * header that says where it comes from. Used by `sync-crds` to write them and by the drift test to compare.
 */
import { stringify } from 'yaml';
import { buildAllCrds, type CustomResourceDefinition } from './crd';

export const GENERATED_HEADER =
  '# Generated from libs/k8s-api (TypeBox schemas) by `npm run sync`. Do not edit by hand.\n';

export interface CrdFile {
  /** File name inside `crds/`. */
  readonly fileName: string;
  readonly text: string;
  readonly crd: CustomResourceDefinition;
}

export function renderCrd(crd: CustomResourceDefinition): string {
  // lineWidth 0: never fold long descriptions or CEL rules, so diffs stay one line per change.
  // singleQuote: what prettier (singleQuote in .prettierrc.json) would write, so format:check passes.
  return GENERATED_HEADER + stringify(crd, { lineWidth: 0, singleQuote: true });
}

export function crdFiles(): CrdFile[] {
  return buildAllCrds().map((crd) => ({ fileName: `${crd.metadata.name}.yaml`, text: renderCrd(crd), crd }));
}
