// expect: per-column to typeof, item index, limit 2 rows per input row -> ["1",10,0], ["2",20,1]
print a = dynamic([1, 2, 3]), b = dynamic(["10", "20"]) | mv-expand with_itemindex=i a to typeof(string), b to typeof(long) limit 2
