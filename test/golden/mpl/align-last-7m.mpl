golden:cpu | where host == "h1" | align to 7m using last
