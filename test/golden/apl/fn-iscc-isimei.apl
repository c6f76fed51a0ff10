// expect: Luhn-valid Visa test number (spaces allowed) true, last digit changed false; 490154203237518 is a valid IMEI, ...517 not; letters false -> [true,false,true,false,false]
print a = iscc("4111 1111 1111 1111"), b = iscc("4111111111111112"), c = isimei("490154203237518"), d = isimei("490154203237517"), e = iscc("abc")
