golden:cpu | where host == "h3" | align to 5m using max | map interpolate::linear
