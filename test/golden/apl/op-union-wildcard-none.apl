// expect: a pattern that matches no dataset is a 404 -> error not_found dataset_not_found
union nope* | count
