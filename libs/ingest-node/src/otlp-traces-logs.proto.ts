/**
 * The OTLP trace and log export messages (opentelemetry-proto v1: collector/trace/v1, collector/logs/v1,
 * trace/v1, logs/v1, common/v1, resource/v1) with the official field numbers, flattened into one package.
 * Enums (span kind, status code, severity number) are declared as int32: the wire encoding is the same
 * varint, and the converters read numbers. Kept as text like `otlp-metrics.proto.ts`.
 */
import { OTLP_COMMON_MESSAGES } from './otlp-common.proto';

export const OTLP_TRACES_LOGS_PROTO = `
syntax = "proto3";
package quarry.otlp.signals;

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }

message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
message ExportLogsServiceResponse { ExportLogsPartialSuccess partial_success = 1; }
message ExportLogsPartialSuccess { int64 rejected_log_records = 1; string error_message = 2; }

${OTLP_COMMON_MESSAGES}

message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
}
message Status { string message = 2; int32 code = 3; }

message ResourceLogs { Resource resource = 1; repeated ScopeLogs scope_logs = 2; string schema_url = 3; }
message ScopeLogs { InstrumentationScope scope = 1; repeated LogRecord log_records = 2; string schema_url = 3; }
message LogRecord {
  fixed64 time_unix_nano = 1;
  fixed64 observed_time_unix_nano = 11;
  int32 severity_number = 2;
  string severity_text = 3;
  AnyValue body = 5;
  repeated KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7;
  fixed32 flags = 8;
  bytes trace_id = 9;
  bytes span_id = 10;
  string event_name = 12;
}
`;
