// expect: null and non-numeric elements count as 0, so [0,0,4,0] -> [4,-4,4,-4] + 0i (Python oracle); a non-array -> null; an empty series -> []; in print the parts are named <name>_real / <name>_imag
print a = series_fft(dynamic([null, "x", 4, 0])), b = series_fft(5), c = series_fft(dynamic([]))
