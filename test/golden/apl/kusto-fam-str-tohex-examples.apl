// expect: true x4 for the page's tohex(256) == '100', tohex(-256) == 'ffffffffffffff00', tohex(256, 8) == '00000100', tohex(256, 2) == '100'; tohex(256, 20) is 0000000000000100 ("values greater than 16 are truncated to 16"). Not here: tohex(toint(-256), 8) == 'ffffff00' (32-bit): Quarry's toint is a 64-bit long (docs/apl.md) (source: https://learn.microsoft.com/kusto/query/tohex-function, the example and the minLength parameter)
print
    a = tohex(256) == '100',
    b = tohex(-256) == 'ffffffffffffff00',
    c = tohex(256, 8) == '00000100',
    d = tohex(256, 2) == '100',
    e = tohex(256, 20)
