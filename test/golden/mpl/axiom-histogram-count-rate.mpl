golden:lat | where `axiom.histogram` == "count" | align to 20m using prom::rate
