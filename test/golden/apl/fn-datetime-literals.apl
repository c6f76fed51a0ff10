// expect: a=2024-05-01T00:00:00Z, b=2024-05-01T10:30:00.5Z (fraction trimmed), c=2024-05-01T12:00:00Z (space form), d=null
print a = datetime(2024-05-01), b = datetime(2024-05-01T10:30:00.5Z), c = datetime(2024-05-01 12:00:00), d = datetime(null)
