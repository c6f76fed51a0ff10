// expect: string < and between are ordinal; null city drops -> cities < "Q": Paris 02:15, Berlin 02:00, Paris 01:05, Berlin 00:50, Paris 00:10; between B..P: 2 Berlins
ds | where city < "Q" | project _time, city, inrange = city between ("B" .. "P")
