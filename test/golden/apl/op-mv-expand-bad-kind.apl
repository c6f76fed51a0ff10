// expect: only bag and array are bag expansions -> error invalid apl_invalid_argument
print d = dynamic([1]) | mv-expand kind=list d
