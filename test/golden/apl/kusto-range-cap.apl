// expect: range(1,1000000000) is cut at 1048576 values (source: https://learn.microsoft.com/kusto/query/range-function, the page's last example)
print r = range(1,1000000000) | mv-expand r | count
