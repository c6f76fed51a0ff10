// expect: values that are not hll / tdigest results answer null, never an error (Quarry: the pages say the
// representation is opaque; a string, a number or a random array is no sketch), and a null sketch is null
print d = dcount_hll("abc"), d2 = dcount_hll(dynamic([1, 2, 3])), p = percentile_tdigest(dynamic(["tdigest"]), 50),
      r = rank_tdigest(dynamic(null), 3), m = hll_merge(dynamic([1]), "x")
