#!/usr/bin/env python3
"""Compiles every example to SuperDSC and DCI files on several core counts
and checks the files' invariants.

    compile_examples.py BUILD_BIN EXAMPLES_DIR OUT_DIR CORES...

For every example and core count: `spyre-opt --spyre-pipeline=cores=N`,
then `spyre-translate --spyre-to-superdsc --spyre-output-dir=DIR` and
`--spyre-to-dci --spyre-output-dir=DIR`.
Checks, per SuperDSC: at most N cores used, as many cores as the product of
the slices per dim, one slice and one start address per core, every DDR
start address inside its 16 GiB segment; per DCI: the nests copy each host
element once (their sizes multiply up to the host tensor). Prints one line
per example and core count.
"""

import glob
import json
import math
import os
import re
import subprocess
import sys

SEGMENT = 16 << 30


def run(command):
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"FAILED: {' '.join(command)}\n{out.stderr}")
    return out.stdout


def check_sdsc(path, cores):
    with open(path) as f:
        (name, body), = json.load(f).items()
    used = body["numCoresUsed_"]
    assert 1 <= used <= cores, (path, used)
    assert math.prod(body["numWkSlicesPerDim_"].values()) == used, path
    assert len(body["coreIdToWkSlice_"]) == used, path
    (opfunc, dsc), = body["dscs_"][0].items()
    assert name.endswith("_" + opfunc), (path, name, opfunc)
    assert dsc["computeOp_"][0]["opFuncName"] == opfunc, path
    for node in dsc["scheduleTree_"]:
        data = node["startAddressCoreCorelet_"]["data_"]
        assert len(data) == used, path
        if node["component_"] == "hbm":
            bases = {int(a) // SEGMENT for a in data.values()}
            assert len(bases) == 1, (path, node["name_"], bases)


def check_dci(path):
    with open(path) as f:
        dci = json.load(f)
    host = dci["input_shape_"] if dci["isHostToSen_"] else dci["output_shape_"]
    moved = sum(math.prod(s["size_"]) for s in dci["dcsi_"])
    assert moved == math.prod(host), (path, moved, host)


def main(argv):
    bindir, examples, out, cores = argv[1], argv[2], argv[3], argv[4:]
    for example in sorted(glob.glob(os.path.join(examples, "*.mlir"))):
        stem = os.path.splitext(os.path.basename(example))[0]
        for n in map(int, cores):
            kernels = run([os.path.join(bindir, "spyre-opt"), example,
                           f"--spyre-pipeline=cores={n}"])
            lowered = os.path.join(out, f"{stem}.{n}.mlir")
            with open(lowered, "w") as f:
                f.write(kernels)
            sdsc_dir = os.path.join(out, f"{stem}.{n}.sdsc")
            dci_dir = os.path.join(out, f"{stem}.{n}.dci")
            translate = os.path.join(bindir, "spyre-translate")
            run([translate, "--spyre-to-superdsc", lowered,
                 "--spyre-output-dir=" + sdsc_dir])
            run([translate, "--spyre-to-dci", lowered,
                 "--spyre-output-dir=" + dci_dir])
            sdscs = glob.glob(os.path.join(sdsc_dir, "sdsc_*.json"))
            dcis = glob.glob(os.path.join(dci_dir, "dci_*.json"))
            for path in sdscs:
                check_sdsc(path, n)
            for path in dcis:
                check_dci(path)
            bundles = glob.glob(os.path.join(sdsc_dir, "bundle_*.mlir"))
            assert bundles, "no bundle written"
            listed = []
            for path in sorted(bundles,
                               key=lambda p: int(p.split("_")[-1][:-5])):
                with open(path) as f:
                    text = f.read()
                assert text.count("func.func @sdsc_bundle()") == 1, path
                listed += re.findall(r'sdsc_filename="(sdsc_[0-9]+\.json)"',
                                     text)
            # Every SuperDSC runs in exactly one bundle, in file order.
            assert listed == [f"sdsc_{i}.json" for i in range(len(sdscs))], \
                listed
            print(f"{stem} cores={n}: {kernels.count('spyre.kernel')} kernels, "
                  f"{len(sdscs)} superdsc, {len(dcis)} dci, ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
