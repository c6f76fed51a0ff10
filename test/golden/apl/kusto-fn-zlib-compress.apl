// expect: "1234567890qwertyuiop" -> eAEBFADr/zEyMzQ1Njc4OTBxd2VydHl1aW9wOAkGdw== (a stored block: deflate would not shrink 20 bytes) (source: https://learn.microsoft.com/kusto/query/zlib-base64-compress-function, the page's example)
print zcomp = zlib_compress_to_base64_string("1234567890qwertyuiop")
