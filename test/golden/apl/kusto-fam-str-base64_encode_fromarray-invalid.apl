// expect: empty (null): "U3RyaW5n0KHR0tGA0L7Rh9C60LA" has no padding, so base64_decode_toarray gives nothing to encode (source: https://learn.microsoft.com/kusto/query/base64-encode-fromarray-function, second example)
let empty_bytes_array = toscalar(print base64_decode_toarray("U3RyaW5n0KHR0tGA0L7Rh9C60LA"));
print empty_string = base64_encode_fromarray(empty_bytes_array)
