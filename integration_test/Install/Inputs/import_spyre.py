"""Imports the installed `spyre` package and uses layouts and the compiler."""
import os
import sys

import numpy as np
import spyre

print("from", spyre.__file__)
print(spyre.__version__, spyre.SpyreTensorLayout([1000, 200], np.float16))
with open(os.path.join(sys.argv[1], "examples", "softmax.mlir")) as f:
    print(spyre.compile(f.read(), cores=4))
