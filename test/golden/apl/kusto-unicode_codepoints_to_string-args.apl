// Kusto: https://learn.microsoft.com/kusto/query/unicode-codepoints-to-string-function (examples) -- Kusto four ways, K\nu\ns\nt\no, and the digits and letters from three ranges
print a = unicode_codepoints_to_string(75, 117, 115, 116, 111),
      b = unicode_codepoints_to_string(dynamic([75, 117, 115, 116, 111])),
      c = unicode_codepoints_to_string(dynamic([75, 117, 115]), 116, 111),
      d = unicode_codepoints_to_string(75, 10, 117, 10, 115, 10, 116, 10, 111),
      e = unicode_codepoints_to_string(range(48,57), range(65,90), range(97,122))
