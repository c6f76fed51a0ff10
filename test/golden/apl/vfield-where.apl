// expect: ds2 virtual field is_error = toint(status) >= 500: only the POST 500 row -> ["edge-2",true]
ds2 | where is_error | project host, is_error
