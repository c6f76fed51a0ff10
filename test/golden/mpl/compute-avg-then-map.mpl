(
  golden:cpu | where host == "h1" | align to 1h using avg | group using sum,
  golden:cpu | where host == "h2" | align to 1h using avg | group using sum
) | compute mean using avg | map * 10 | as scaled
