// Kusto: https://learn.microsoft.com/kusto/query/base64-decode-tostring-function (examples) -- "Kusto"; bytes that are not valid UTF-8 give null
print Quine=base64_decode_tostring("S3VzdG8="), Empty=base64_decode_tostring("U3RyaW5n0KHR0tGA0L7Rh9C60LA=")
