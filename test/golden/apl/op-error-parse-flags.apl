// expect: flags= only with kind=regex: error invalid apl_invalid_argument
ds | parse flags=i msg with "x" rest
