// expect: stored fields (_sysTime, _time, host, method, msg, status) then the virtual field is_error (bool) -> names in that order
ds2 | getschema | project ColumnName, ColumnType
