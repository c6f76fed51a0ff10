golden:cpu | sample 0.0 | align to 1h using avg
