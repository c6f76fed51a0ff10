set custom_unit = "%";
golden:cpu | where host == "h2" | align to 1h using avg
