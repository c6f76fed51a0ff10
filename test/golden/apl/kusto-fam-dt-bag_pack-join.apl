// expect: 555-555-1234 rows: 1213 {"CharsCount":"50","FileSize":"250","FileType":"jpeg","FileName":"Pic2"}, 1212 {"CharsCount":"46",…Pic2}, 1213 {"CharsCount":"50","FileSize":"300","FileType":"png","FileName":"Pic3"}, 1212 {"CharsCount":"46",…Pic3} (sorted into the page's order) (source: https://learn.microsoft.com/kusto/query/pack-function, example 3)
let SmsMessages = datatable (
    SourceNumber: string,
    TargetNumber: string,
    CharsCount: string
) [
    "555-555-1234", "555-555-1212", "46",
    "555-555-1234", "555-555-1213", "50",
    "555-555-1212", "555-555-1234", "32"
];
let MmsMessages = datatable (
    SourceNumber: string,
    TargetNumber: string,
    FileSize: string,
    FileType: string,
    FileName: string
) [
    "555-555-1212", "555-555-1213", "200", "jpeg", "Pic1",
    "555-555-1234", "555-555-1212", "250", "jpeg", "Pic2",
    "555-555-1234", "555-555-1213", "300", "png", "Pic3"
];
SmsMessages
| join kind=inner MmsMessages on SourceNumber
| extend Packed=bag_pack("CharsCount", CharsCount, "FileSize", FileSize, "FileType", FileType, "FileName", FileName)
| where SourceNumber == "555-555-1234"
| project SourceNumber, TargetNumber, Packed
| order by tostring(Packed.FileName) asc, TargetNumber desc
