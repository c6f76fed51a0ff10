// expect: series_ifft(series_fft(y)) gives back y_real and y_imag (the page shows it as a chart; checked here as the largest difference being under 1e-9: true, true, n 128) (source: https://learn.microsoft.com/kusto/query/series-fft-function)
let sinewave=(x:double, period:double, gain:double=1.0, phase:double=0.0)
{
    gain*sin(2*pi()/period*(x+phase))
}
;
let n=128;      //  signal length
range x from 0 to n-1 step 1 | extend yr=sinewave(x, 8), yi=sinewave(x, 32)
| summarize x=make_list(x), y_real=make_list(yr), y_imag=make_list(yi)
| extend (fft_y_real, fft_y_imag) = series_fft(y_real, y_imag)
| extend (y_real2, y_image2) = series_ifft(fft_y_real, fft_y_imag)
| project-away fft_y_real, fft_y_imag
| project same_real = series_max(series_abs(series_subtract(y_real, y_real2))) < 1e-9, same_imag = series_max(series_abs(series_subtract(y_imag, y_image2))) < 1e-9, n = array_length(y_real2)
