// Validates rendered Kubernetes objects offline. Runs as its own Node process because
// @kubernetes-models/prometheus-operator is ESM-only (jest runs the tests as CommonJS).
//   stdin:  JSON array of objects
//   stdout: JSON array of {index, kind, name, errors: string[]}, one per object with a problem
// Built-in kinds: kubernetes-models (4.x, the Kubernetes 1.31 OpenAPI). monitoring.coreos.com: the
// prometheus-operator models. Kinds of a CustomResourceDefinition in the same batch: ajv against the
// CRD's openAPIV3Schema (structural keywords only; CEL rules are the CRD suite's business).
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const input = JSON.parse(
  await new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
  }),
);

/** The module that holds an apiVersion's models, or undefined. */
function modelModule(apiVersion) {
  if (apiVersion.startsWith('monitoring.coreos.com/')) {
    return `@kubernetes-models/prometheus-operator/${apiVersion}`;
  }
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === '') return `kubernetes-models/${version}`;
  if (group.includes('.') && !group.endsWith('.k8s.io')) return undefined;
  return `kubernetes-models/${group}/${version}`;
}

const crdSchemas = new Map();
for (const object of input) {
  if (object?.kind !== 'CustomResourceDefinition') continue;
  for (const version of object.spec?.versions ?? []) {
    crdSchemas.set(
      `${object.spec.group}/${version.name}/${object.spec.names.kind}`,
      version.schema?.openAPIV3Schema,
    );
  }
}
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

const problems = [];
for (const [index, object] of input.entries()) {
  const where = { index, kind: object?.kind, name: object?.metadata?.name };
  const errors = [];
  const crdSchema = crdSchemas.get(`${object.apiVersion}/${object.kind}`);
  if (crdSchema) {
    const validate = ajv.compile(crdSchema);
    if (!validate(object)) {
      for (const e of validate.errors) errors.push(`${e.instancePath || '/'} ${e.message}`);
    }
  } else {
    const module = modelModule(String(object.apiVersion ?? ''));
    let Model;
    if (module) {
      try {
        Model = (await import(module))[object.kind];
      } catch {
        Model = undefined;
      }
    }
    if (!Model) {
      errors.push(`no model for ${object.apiVersion} ${object.kind}`);
    } else {
      try {
        new Model(object).validate();
      } catch (err) {
        errors.push(err.message);
      }
    }
  }
  if (errors.length > 0) problems.push({ ...where, errors });
}
process.stdout.write(JSON.stringify(problems));
