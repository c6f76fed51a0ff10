golden:cpu[2024-01-01T00:30:00Z..+5m] | where host == "h1"
