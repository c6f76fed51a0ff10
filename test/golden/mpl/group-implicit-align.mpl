golden:cpu | where host == "h1" | group using max
