// Kusto: https://learn.microsoft.com/kusto/query/todatetime-function (second example: todatetime('12-02-2022') == datetime('12-02-2022') is true) and scalar-data-types/datetime ("Supported formats": ISO 8601 2015-12-31 23:59:59.9, RFC 822 Sat, 8 Nov 14 15:05:02 GMT, RFC 850 Saturday, 08-Nov-14 15:05 GMT, sortable 2014-11-8 15:05:25 GMT)
print same = todatetime('12-02-2022') == datetime('12-02-2022'),
      iso = todatetime("2015-12-31 23:59:59.9"),
      rfc822 = todatetime("Sat, 8 Nov 14 15:05:02 GMT"),
      rfc850 = todatetime("Saturday, 08-Nov-14 15:05 GMT"),
      sortable = datetime(2014-11-8 15:05:25 GMT)
