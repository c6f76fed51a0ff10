/**
 * `processedBytes` of the ingest status (api.md §3.3, verified against the Go client's suite): the byte
 * length of the decompressed body, counted raw before any parsing, plus the byte length of the
 * `X-Axiom-Event-Labels` header value when present. `X-Axiom-CSV-Fields` is not counted.
 */
export function processedBytesFor(decodedBody: Buffer, labelsHeader: string | undefined): number {
  const labelBytes = labelsHeader ? Buffer.byteLength(labelsHeader, 'utf8') : 0;
  return decodedBody.length + labelBytes;
}
