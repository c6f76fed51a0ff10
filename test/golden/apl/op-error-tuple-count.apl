// expect: series_fft returns two columns, three names is an invalid argument: error invalid apl_invalid_argument
print y = dynamic([1, 2]) | extend (a, b, c) = series_fft(y)
