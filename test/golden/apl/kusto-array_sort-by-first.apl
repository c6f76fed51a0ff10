// Kusto: https://learn.microsoft.com/kusto/query/array-sort-asc-function and array-sort-desc-function (example 3) -- commands ordered by their times: user1 ls, mkdir, chmod, dir, pwd, rm (desc: rm, pwd, dir, chmod, mkdir, ls); user2 rm, pwd (desc: pwd, rm)
datatable(command:string, command_time:datetime, user_id:string)
[
    'chmod',   datetime(2019-07-15),   "user1",
    'ls',      datetime(2019-07-02),   "user1",
    'dir',     datetime(2019-07-22),   "user1",
    'mkdir',   datetime(2019-07-14),   "user1",
    'rm',      datetime(2019-07-27),   "user1",
    'pwd',     datetime(2019-07-25),   "user1",
    'rm',      datetime(2019-07-23),   "user2",
    'pwd',     datetime(2019-07-25),   "user2"
]
| summarize timestamps = make_list(command_time), commands = make_list(command) by user_id
| project user_id, asc = array_sort_asc(timestamps, commands)[1], desc = array_sort_desc(timestamps, commands)[1]
| sort by user_id asc
