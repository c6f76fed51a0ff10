golden:cpu | where host > "h1" | align to 1h using max
