// expect: top keeps all input columns -> the DELETE row (dur 1000) with every field; retry is the string "x"
ds | top 1 by dur
