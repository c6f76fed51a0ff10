golden:cpu | where host == #/h(?!1)/ | align to 1h using avg
