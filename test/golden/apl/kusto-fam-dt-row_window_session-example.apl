// expect: ID 1 10:00 -> 10:00, 1 11:00 -> 11:00; 2 10:16 -> 10:16, 2 10:18 -> 10:16, 2 13:30 -> 13:30; 3 11:30 -> 11:30 (all 2024-04-11) (source: https://learn.microsoft.com/kusto/query/row-window-session-function)
datatable (ID:string, Timestamp:datetime) [
    "1", datetime(2024-04-11 10:00:00),
    "2", datetime(2024-04-11 10:18:00),
    "1", datetime(2024-04-11 11:00:00),
    "3", datetime(2024-04-11 11:30:00),
    "2", datetime(2024-04-11 13:30:00),
    "2", datetime(2024-04-11 10:16:00)
]
| sort by ID asc, Timestamp asc
| extend SessionStarted = row_window_session(Timestamp, 1h, 5m, ID != prev(ID))
