// expect: set stricttypes = false keeps the default coercions: the string status compared with 500 is null, no row -> count 0
set stricttypes = false; ds | where status >= 500 | count
