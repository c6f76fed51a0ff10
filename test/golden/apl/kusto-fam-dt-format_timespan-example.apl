// expect: v1 29.09:00:05:12, v2 029.9:00:05 [1234500] (a Quarry extension, docs/apl.md; the page writes the span as time(29.09:00:05.12345), a literal form Quarry's parser does not read yet, so totimespan of its text here) (source: https://learn.microsoft.com/kusto/query/format-timespan-function)
let t = totimespan("29.09:00:05.12345");
print
v1=format_timespan(t, 'dd.hh:mm:ss:FF'),
v2=format_timespan(t, 'ddd.h:mm:ss [fffffff]')
