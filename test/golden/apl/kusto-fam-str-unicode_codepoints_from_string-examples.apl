// expect: [9382, 9392, 9390, 9391, 9386]; [1511, 1493, 1505, 1496, 1493, 32, 45, 32, 75, 117, 115, 116, 111]; Kusto; to_utf8 (the page's deprecated alias) gives the same array as the function (source: https://learn.microsoft.com/kusto/query/unicode-codepoints-from-string-function, the three examples)
print arr = unicode_codepoints_from_string("⒦⒰⒮⒯⒪"), hebrew = unicode_codepoints_from_string("קוסטו - Kusto"),
      str = unicode_codepoints_to_string(unicode_codepoints_from_string("Kusto")), alias = to_utf8("⒦⒰⒮⒯⒪")
