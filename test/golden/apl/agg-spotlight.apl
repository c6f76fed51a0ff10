// expect: spotlight is rejected with a clear unsupported diagnostic -> error invalid apl_unsupported
ds | summarize spotlight(status == "500", method)
