golden:cpu as load | where host == "h1" | align to 30m using max
