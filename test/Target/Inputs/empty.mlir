// An empty module: no functions, and no mention of the spyre dialect.
