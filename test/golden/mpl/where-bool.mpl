golden:cpu | where spot == true | align to 1h using count
