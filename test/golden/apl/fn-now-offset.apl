// expect: now() is query time 2024-05-02T00:00:00Z; b=now(-1h)=2024-05-01T23:00:00Z; c=ago(1d)=2024-05-01T00:00:00Z
print a = now(), b = now(-1h), c = ago(1d)
