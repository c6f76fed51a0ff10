// expect: a=2024-05-01T10:00:00Z, b=null (invalid), c=2024-05-01T00:00:00Z (date only), d=2024-01-02T00:00:00Z (datetime passthrough), e=null ("")
print a = todatetime("2024-05-01T10:00:00Z"), b = todatetime("nope"), c = todatetime("2024-05-01"), d = todatetime(datetime(2024-01-02)), e = todatetime("")
