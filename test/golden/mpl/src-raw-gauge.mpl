golden:cpu | where host == "h1"
