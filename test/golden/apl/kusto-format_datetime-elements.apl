// Kusto: https://learn.microsoft.com/kusto/query/format-datetime-function (three examples; a Quarry extension, docs/apl.md) -- 17-01-29 [09:00:05], 2017-1-29 [9:00:05], 17-01-29 [09:00:05 AM]
let dt = datetime(2017-01-29 09:00:05);
print
v1=format_datetime(dt,'yy-MM-dd [HH:mm:ss]'),
v2=format_datetime(dt, 'yyyy-M-dd [H:mm:ss]'),
v3=format_datetime(dt, 'yy-MM-dd [hh:mm:ss tt]')
