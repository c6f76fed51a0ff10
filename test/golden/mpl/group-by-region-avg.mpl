golden:cpu | align to 30m using avg | group by region using avg
