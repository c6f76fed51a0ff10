// A typed literal inside dynamic must hold a value of its type: `long("x")` is apl_invalid_dynamic.
print d = dynamic([long("x")])
