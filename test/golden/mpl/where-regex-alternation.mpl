golden:reqs | where code == #/^5/ or svc == #/b/ | align to 1h using last
