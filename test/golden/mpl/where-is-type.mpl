golden:cpu | where cores is int and not host is int | align to 1h using min
