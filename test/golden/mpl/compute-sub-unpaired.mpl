(
  golden:cpu | where region == "eu" | align to 30m using avg | group by host using sum,
  golden:cpu | align to 30m using min | group by host using sum
) | compute spread using -
