// expect: bytes [72,105] = "Hi" = "SGk="; decode back; 256 is not a byte -> null; invalid base64 -> null -> ["SGk=",[72,105],null,null]
print a = base64_encode_fromarray(dynamic([72, 105])), b = base64_decode_toarray("SGk="), c = base64_encode_fromarray(dynamic([256])), d = base64_decode_toarray("***")
