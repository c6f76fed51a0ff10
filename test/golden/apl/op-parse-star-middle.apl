// expect: * skips to the next constant; a constant matches its first occurrence -> ["ERROR","disk full"]
ds | where method == "POST" | parse msg with lvl ":" * " " what | project lvl, what
