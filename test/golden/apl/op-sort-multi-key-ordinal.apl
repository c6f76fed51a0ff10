// expect: strings sort by code point (upper case first, get after PUT); second key _time desc -> DELETE, GET 03:45/02:00/00:50/00:10, POST, PUT, get
ds | sort by method asc, _time desc | project method, _time
