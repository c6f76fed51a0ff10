// expect: ['geo.']* (quoted prefix, wildcard outside the quotes) drops geo.city and geo.country; attributes.* drops the three attributes fields; left in input order: _time, n, req-id, user name, where; newest first (raw order): (00:30,2.5,r3,null,w3), (00:20,"2",r2,bob,null), (00:10,1,r1,ann,null)
nested | project-away ['geo.']*, attributes.*, _sysTime
