golden:cpu[1704067200..1704067500] | where host == "h2"
