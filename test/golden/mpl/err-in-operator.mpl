golden:cpu | where host in ["h1", "h2"]
