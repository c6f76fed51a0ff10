ds | where status == "200" | project-away tags, msg, _sysTime | project-rename when = _time | project-reorder method, when
