// expect: DFT of [1,2,3,4] is [10, -2+2i, -2, -2-2i] (checked with a naive DFT in Python), so re [10,-2,-2,-2], im [0,2,0,-2]; the tuple (re, im) names the two columns; series_ifft brings back [1,2,3,4] with imaginary part [0,0,0,0]
print y = dynamic([1, 2, 3, 4]) | extend (re, im) = series_fft(y) | extend (x, xi) = series_ifft(re, im) | project-away y
