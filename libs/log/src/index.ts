export * from './ingest-log.port';
export * from './memory-ingest-log.fake';
export * from './file-segment-log.adapter';
export * from './file-io';
export * from './crash-file-io.fake';
export * from './fault-file-io.fake';
export { crc32c } from './crc32c';
export * from './kafka-ingest-log.adapter';
export type { KafkaLogOptions, KafkaSaslOptions, KafkaLogLevel, KafkaLogEntry } from './kafka-config';
