// expect: replaceHash=true is not supported (hash undocumented) -> error invalid apl_unsupported
ds | redact replaceHash=true @"\d+" | count
