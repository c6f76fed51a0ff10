golden:cpu | where host == "h3"
