// expect: externaldata is rejected with a clear unsupported diagnostic -> error invalid apl_unsupported
externaldata (a:string) ["https://example.com/a.csv"] | count
