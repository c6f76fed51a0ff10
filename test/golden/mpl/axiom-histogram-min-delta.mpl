golden:job | where `axiom.histogram` == "min" or `axiom.histogram` == "max" | align to 1h using avg
