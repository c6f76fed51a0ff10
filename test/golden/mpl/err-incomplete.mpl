golden:cpu | align to
