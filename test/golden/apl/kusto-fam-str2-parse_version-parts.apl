// expect: the page's parsedVersion numbers, as Quarry's 32-digit zero-padded text (no decimal type; docs/apl.md): 0.0.0.5 → …0005 (5), 0.0.7.0 → 700,000,000, 0.0.3 → 300,000,000, 0.2 → 20,000,000,000,000,000, 0.1.2.0 → 10,000,000,200,000,000, 1.2.3.4 → 1,000,000,020,000,000,300,000,004, 1 → 10^24 (source: https://learn.microsoft.com/kusto/query/parse-version-function)
let dt = datatable(v: string)
    [
    "0.0.0.5", "0.0.7.0", "0.0.3", "0.2", "0.1.2.0", "1.2.3.4", "1"
];
dt
| extend parsedVersion = parse_version(v)
