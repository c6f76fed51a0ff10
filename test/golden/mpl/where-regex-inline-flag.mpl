golden:cpu | where host == #/(?i)^H[12]$/ | align to 1h using avg
