// expect: S3VzdG8=, Kusto, empty (null) for bytes that are not UTF-8, [75,117,115,116,111] (source: https://learn.microsoft.com/kusto/query/base64-encode-tostring-function, https://learn.microsoft.com/kusto/query/base64-decode-tostring-function, https://learn.microsoft.com/kusto/query/base64-decode-toarray-function, the examples)
print Quine = base64_encode_tostring("Kusto"), Decoded = base64_decode_tostring("S3VzdG8="),
      Empty = base64_decode_tostring("U3RyaW5n0KHR0tGA0L7Rh9C60LA="), Bytes = base64_decode_toarray("S3VzdG8=")
