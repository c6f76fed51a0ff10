// Kusto: https://learn.microsoft.com/kusto/query/parse-path-function (example) -- drive roots, a scheme with an alternate data stream, a share path, a Unix path
datatable(p:string)
[
    @"C:\temp\file.txt",
    @"temp\file.txt",
    "file://C:/temp/file.txt:some.exe",
    @"\\shared\users\temp\file.txt.gz",
    "/usr/lib/temp/file.txt"
]
| extend path_parts = parse_path(p)
| project path_parts
