golden:nope | align to 10m using avg
