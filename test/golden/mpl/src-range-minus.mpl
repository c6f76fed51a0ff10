golden:cpu[-3m..1704067500] | where host == "h1"
