golden:cpu | align to $step using avg
