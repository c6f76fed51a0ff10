// expect: pack_all() packs every column of the row; pack_all(true) leaves out null and empty ones (source: https://learn.microsoft.com/kusto/query/pack-all-function example output)
datatable(SourceNumber:string,TargetNumber:string,CharsCount:long)
[
'555-555-1234','555-555-1212',46,
'555-555-1234','555-555-1213',50,
'555-555-1313','',42,
'','555-555-3456',74
]
| extend Packed=pack_all(), PackedIgnoreNullEmpty=pack_all(true)
