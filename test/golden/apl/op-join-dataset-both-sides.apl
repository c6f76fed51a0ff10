// expect: join of ds with ds on method: GET rows 4x4 = 16 pairs, plus POST, DELETE, PUT, get 1 each -> 20
ds | join kind=inner (ds | project method, t2 = _time) on method | count
