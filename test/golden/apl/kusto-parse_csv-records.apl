// Kusto: https://learn.microsoft.com/kusto/query/parse-csv-function ("Use escaping quotes", "CSV with multiple records") -- quoted commas, doubled quotes and a quoted line feed stay in one value; only the first record is taken
print result=parse_csv('aa,"b,b,b",cc,"Escaping quotes: ""Title""","line1\nline2"'),
      result_multi_record=parse_csv('record1,a,b,c\nrecord2,x,y,z')
