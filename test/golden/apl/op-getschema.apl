// expect: one row per column: ColumnName, ColumnOrdinal (0-based), DataType, ColumnType -> method string, dur real, _time datetime, bytes long/int
ds | project method, dur, _time, bytes | getschema
