// expect: take 0 returns no rows -> header _time:datetime only
ds | take 0 | project _time
