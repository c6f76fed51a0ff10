/**
 * `@quarry/k8s-api/testing`: apiserver-like admission from the generated CRDs, for fake API servers and
 * fixture tests. Separate from the main entry because it needs ajv and @bufbuild/cel (dev dependencies).
 */
export {
  CEL_SKIPPED_NOTICE,
  CrdAdmission,
  toKubeStatus,
  type AdmissionResult,
  type Admitted,
  type Rejected,
} from './admission';
export { CelRuleCompileError } from './cel-validation';
export { formatFieldError, type FieldError, type FieldErrorType, type StatusCause } from './field-errors';
