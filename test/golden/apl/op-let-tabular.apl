// expect: let binds a tabular expression usable as a source -> Paris rows: n 3, b 110
let paris = ds | where city == "Paris";
paris | summarize n = count(), b = sum(bytes)
