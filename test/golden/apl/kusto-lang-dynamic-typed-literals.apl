// Kusto: the dynamic data type, "Dynamic literals": a dynamic literal in the query text "may also include
// other Kusto literals"; values JSON cannot represent are serialized as strings (timespan as its text,
// guid as its text), numbers and booleans stay JSON values. Expect [1,-2,1.5,true,"74be…","1.00:00:00",
// "01:00:00","00:00:02",null].
// https://learn.microsoft.com/kusto/query/scalar-data-types/dynamic
print d = dynamic([long(1), int(-2), real(1.5), bool(true), guid(74be27de-1e4e-49d9-b579-fe0b331d3642), timespan(1d), time(1h), 2s, long(null)])
