// expect: !in keeps null cities (engine choice) -> 03:45 null, 01:30 São Paulo, 00:20 null
ds | where city !in ("Paris", "Berlin") | project _time, city
