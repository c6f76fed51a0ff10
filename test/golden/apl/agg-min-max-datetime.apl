// expect: min__time 2024-05-01T00:10:00Z, max__time 2024-05-01T03:45:00Z
ds | summarize min(_time), max(_time)
