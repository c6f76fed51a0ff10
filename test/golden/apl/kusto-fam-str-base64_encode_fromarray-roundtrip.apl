// expect: S3VzdG8= (source: https://learn.microsoft.com/kusto/query/base64-encode-fromarray-function, first example)
let bytes_array = toscalar(print base64_decode_toarray("S3VzdG8="));
print decoded_base64_string = base64_encode_fromarray(bytes_array)
