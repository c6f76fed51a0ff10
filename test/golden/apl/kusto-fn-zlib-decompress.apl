// expect: valid input -> "Test string 123"; invalid "x0x0x0" -> empty (null in Quarry) (source: https://learn.microsoft.com/kusto/query/zlib-base64-decompress-function, the page's example)
print zcomp = zlib_decompress_from_base64_string("eJwLSS0uUSguKcrMS1cwNDIGACxqBQ4="), invalid = zlib_decompress_from_base64_string("x0x0x0")
