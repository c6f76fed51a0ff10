golden:cpu | align using max
