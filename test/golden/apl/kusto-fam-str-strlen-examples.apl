// expect: 5, 5, 8 ("C" + U+0327 COMBINING CEDILLA is two code points) (source: https://learn.microsoft.com/kusto/query/strlen-function, the three examples)
print length = strlen("hello"), symbols = strlen("⒦⒰⒮⒯⒪"), grapheme = strlen('Çedilla')
