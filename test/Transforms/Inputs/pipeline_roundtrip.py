"""The pipeline --spyre-pipeline dumps parses back and compiles the same.

    pipeline_roundtrip.py SPYRE_OPT INPUT [PIPELINE_OPTIONS]

Prints the dumped pipeline, then "same output" when running the dumped
textual pipeline gives exactly what --spyre-pipeline gives.
"""
import subprocess
import sys

opt, source = sys.argv[1], sys.argv[2]
options = sys.argv[3] if len(sys.argv) > 3 else ""
flag = "--spyre-pipeline" + ("=" + options if options else "")
dumped = subprocess.run([opt, source, flag, "--dump-pass-pipeline", "-o",
                         "/dev/null"], capture_output=True, text=True,
                        check=True).stderr
pipeline = " ".join(dumped.splitlines()[1:])
print(pipeline)
direct = subprocess.run([opt, source, flag], capture_output=True, text=True,
                        check=True).stdout
parsed = subprocess.run([opt, source, "--pass-pipeline=" + pipeline],
                        capture_output=True, text=True)
if parsed.returncode != 0:
    sys.exit("the dumped pipeline does not run:\n" + parsed.stderr)
print("same output" if parsed.stdout == direct else "DIFFERENT OUTPUT")
