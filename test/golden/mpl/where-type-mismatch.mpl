golden:reqs | where code == 200 | align to 1h using last
