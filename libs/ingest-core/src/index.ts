export * from './limits';
export { decodeBody } from './decode-body';
export { processedBytesFor } from './processed-bytes';
export {
  parseIngestBody,
  parseIngestBatch,
  parseEventLabels,
  type IngestBatchResult,
  type IngestParseOptions,
  type IngestParseResult,
  type IngestParseFailure,
} from './parse-ingest-body';
export { detectBodyFormat, type BodyFormat } from './body-format';
export { parseTimestamp, epochToMs } from './timestamp';
export { parseWithGoLayout, compileGoLayout, NAMED_GO_LAYOUTS } from './go-time-layout';
export { TOO_LONG_STRING } from './normalize-event';
export { parseCsvFieldsHeader } from './csv-body';
