/**
 * The OTLP messages every signal shares (opentelemetry-proto v1: common/v1, resource/v1), with the
 * official field numbers: spliced into each signal's package (`otlp-metrics.proto.ts`,
 * `otlp-traces-logs.proto.ts`) so each parses on its own.
 */
export const OTLP_COMMON_MESSAGES = `
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
`;
