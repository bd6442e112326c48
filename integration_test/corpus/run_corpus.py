#!/usr/bin/env python3
"""Runs the bad-input corpus: every case must be rejected cleanly.

A case file holds cases separated by lines `// -----`. Each case is MLIR text
(or anything else) with header comments:

  // TOOL: spyre-opt --spyre-pipeline
        The tool (a name in --bin-dir) and its arguments, split like a shell
        would (shlex). `%s` is the case text written to a file, `%{dir}` the
        case's scratch directory. Without `%s` the case file is appended as
        the last argument, unless the case says `// NO-INPUT`.
  // EXPECT: text
        A substring stderr must contain (repeatable).
  // EXPECT-RE: regex
        A Python regex stderr must match (re.search; repeatable).
  // EXPECT-NOT: text
        A substring stderr must not contain (repeatable).
  // EXPECT-LOC: @+N[:COL] | LINE[:COL]
        stderr must carry the diagnostic `<case file>:LINE:COL: error:`,
        LINE counted in the case (its first line is 1) or relative to this
        header line (`@+N`); without COL any column matches.
  // NO-LOC: reason
        spyre-opt and spyre-translate diagnostics must carry a
        `<case file>:LINE:COL: error:` location pointing into the case unless
        the case says why they cannot (options, files: no IR location).
  // NPY: name dtype shape [fill]
        Writes a valid .npy into the scratch directory: dtype a numpy
        descriptor ('<f2', '<f4', '|b1', '|i1', '<i2', '<i4', '<i8', '<f8', ...),
        shape `128x256` (`scalar` for ()), fill a number (default 0).
  // WRITE: name python-expression
        Writes the value of the expression (bytes or str) into the scratch
        directory. The expression sees `npy(descr, shape, fill=0,
        fortran=False, version=(1, 0))` (the bytes of a .npy file) and
        `npy_header(dict_text, version=(1, 0))` (magic + version + length +
        the header text padded as numpy pads it).
  // MKDIR: name
        Creates a directory in the scratch directory.
  // TIMEOUT: seconds
        (default 120)

For every case the tool must exit with a status in [1, 127] (not a signal,
not 128+signal), write a non-empty stderr that satisfies every EXPECT* line,
and show no sign of a crash: no "Stack dump", "PLEASE submit a bug report",
"Assertion", "LLVM ERROR", "UNREACHABLE", sanitizer reports
("AddressSanitizer", "LeakSanitizer", "runtime error:", ...), or "terminate
called". No environment is set here: a sanitizer build's ASAN_OPTIONS /
UBSAN_OPTIONS (lit sets them) pass through, and its reports are caught by the
strings above or by the signal check.

Prints one line per failing case (file, case number and line, reason, the
command) and then `corpus: N cases, M failed`; exits non-zero if any case
failed. `--show` prints every case's exit status and stderr (to write EXPECT
lines), `--keep` keeps the scratch directories.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

SEPARATOR = re.compile(r"^// -----\s*$")
HEADER = re.compile(
    r"^\s*//\s*(TOOL|EXPECT|EXPECT-RE|EXPECT-NOT|EXPECT-LOC|NO-LOC|NO-INPUT|"
    r"NPY|WRITE|MKDIR|TIMEOUT)(?::\s?(.*?))?\s*$")

CRASH_MARKERS = [
    "Stack dump",
    "PLEASE submit a bug report",
    "Assertion",
    "LLVM ERROR",
    "UNREACHABLE",
    "AddressSanitizer",
    "LeakSanitizer",
    "ThreadSanitizer",
    "MemorySanitizer",
    "UndefinedBehaviorSanitizer",
    "runtime error:",
    "terminate called",
    "Segmentation fault",
]

# Tools whose diagnostics are MLIR diagnostics: they must point into the case.
LOCATED_TOOLS = {"spyre-opt", "spyre-translate"}

DTYPE_BYTES = {"b1": 1, "i1": 1, "u1": 1, "i2": 2, "u2": 2, "f2": 2,
               "i4": 4, "u4": 4, "f4": 4, "i8": 8, "u8": 8, "f8": 8}


def npy_header(dict_text, version=(1, 0)):
    """Magic, version, header length and `dict_text` padded like numpy."""
    major, minor = version
    text = dict_text.encode("latin1") if isinstance(dict_text, str) \
        else dict_text
    length_bytes = 2 if major == 1 else 4
    preamble = 6 + 2 + length_bytes
    total = preamble + len(text) + 1
    text = text + b" " * ((-total) % 64) + b"\n"
    length = struct.pack("<H" if major == 1 else "<I", len(text))
    return b"\x93NUMPY" + bytes([major, minor]) + length + text


def pack_element(descr, value):
    kind = descr[1:]
    order = "<" if descr[0] in "<|" else ">"
    if kind == "f2":
        return struct.pack(order + "e", float(value))
    if kind == "f4":
        return struct.pack(order + "f", float(value))
    if kind == "f8":
        return struct.pack(order + "d", float(value))
    if kind == "b1":
        return bytes([1 if value else 0])
    fmt = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I",
           "i8": "q", "u8": "Q"}[kind]
    return struct.pack(order + fmt, int(value))


def npy(descr, shape, fill=0, fortran=False, version=(1, 0)):
    """The bytes of a .npy file of `shape` filled with `fill`."""
    shape = tuple(shape)
    if len(shape) == 1:
        shape_text = "(%d,)" % shape[0]
    else:
        shape_text = "(" + ", ".join(str(d) for d in shape) + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shape_text)
    count = 1
    for d in shape:
        count *= d
    return npy_header(header, version) + pack_element(descr, fill) * count


def parse_shape(text):
    if text == "scalar":
        return ()
    return tuple(int(d) for d in text.split("x"))


class Case:
    def __init__(self, path, index, first_line, lines):
        self.path = path
        self.index = index
        self.first_line = first_line  # line of the case in its file
        self.text = "".join(lines)
        self.tool = None
        self.expect = []
        self.expect_re = []
        self.expect_not = []
        self.expect_loc = []
        self.no_loc = None
        self.no_input = False
        self.setup = []  # (kind, args)
        self.timeout = 120
        self.errors = []
        for number, line in enumerate(lines, start=1):
            match = HEADER.match(line)
            if not match:
                continue
            key, value = match.group(1), match.group(2) or ""
            if key == "TOOL":
                if self.tool is not None:
                    self.errors.append("more than one TOOL line")
                self.tool = value
            elif key == "EXPECT":
                self.expect.append(value)
            elif key == "EXPECT-RE":
                self.expect_re.append(value)
            elif key == "EXPECT-NOT":
                self.expect_not.append(value)
            elif key == "EXPECT-LOC":
                loc = re.fullmatch(r"(@\+|@-)?(\d+)(?::(\d+))?", value)
                if not loc:
                    self.errors.append("bad EXPECT-LOC '%s'" % value)
                    continue
                line_no = int(loc.group(2))
                if loc.group(1) == "@+":
                    line_no = number + line_no
                elif loc.group(1) == "@-":
                    line_no = number - line_no
                self.expect_loc.append((line_no, loc.group(3)))
            elif key == "NO-LOC":
                self.no_loc = value or "unspecified"
            elif key == "NO-INPUT":
                self.no_input = True
            elif key == "TIMEOUT":
                self.timeout = float(value)
            else:
                self.setup.append((key, value))
        if self.tool is None:
            self.errors.append("no TOOL line")
        if not (self.expect or self.expect_re):
            self.errors.append("no EXPECT line")

    def name(self):
        return "%s#%d (line %d)" % (os.path.basename(self.path), self.index,
                                    self.first_line)


def read_cases(path):
    cases = []
    lines = []
    first = 1
    with open(path, encoding="utf-8") as f:
        all_lines = f.readlines()
    for number, line in enumerate(all_lines, start=1):
        if SEPARATOR.match(line):
            cases.append(Case(path, len(cases) + 1, first, lines))
            lines = []
            first = number + 1
        else:
            lines.append(line)
    cases.append(Case(path, len(cases) + 1, first, lines))
    # A file may start with a comment block of its own (no headers at all);
    # any other block without TOOL / EXPECT is reported as malformed.
    first_case = cases[0]
    if (first_case.tool is None and not first_case.expect and
            not first_case.expect_re and not first_case.setup and
            len(cases) > 1):
        cases = cases[1:]
    return cases


def prepare(case, directory):
    """Writes the case file and its extra files; returns the case file."""
    stem = "%s-%d" % (os.path.splitext(os.path.basename(case.path))[0],
                      case.index)
    case_file = os.path.join(directory, stem + ".mlir")
    with open(case_file, "w", encoding="utf-8") as f:
        f.write(case.text)
    for kind, value in case.setup:
        if kind == "MKDIR":
            os.makedirs(os.path.join(directory, value), exist_ok=True)
            continue
        name, _, rest = value.partition(" ")
        target = os.path.join(directory, name)
        if kind == "NPY":
            fields = rest.split()
            if len(fields) not in (2, 3):
                raise ValueError("NPY needs: name dtype shape [fill]")
            fill = float(fields[2]) if len(fields) == 3 else 0
            data = npy(fields[0], parse_shape(fields[1]), fill)
        else:  # WRITE
            data = eval(rest, {"__builtins__": {"bytes": bytes, "range": range,
                                                "len": len, "str": str},
                               "npy": npy, "npy_header": npy_header})
        if isinstance(data, str):
            data = data.encode("utf-8")
        with open(target, "wb") as f:
            f.write(data)
    return case_file


def command_of(case, bin_dir, case_file, directory):
    args = shlex.split(case.tool)
    tool = args[0]
    resolved = os.path.join(os.path.abspath(bin_dir), tool)
    args = [a.replace("%{dir}", directory).replace("%s", case_file)
            for a in args[1:]]
    if "%s" not in case.tool and not case.no_input:
        args.append(case_file)
    return tool, [resolved] + args


def run_case(case, bin_dir, keep, show=None):
    """None if the case passed, else (command, reason, stderr). With `show`
    (a list), appends (case, status, stderr)."""
    if case.errors:
        return "", "malformed case: " + "; ".join(case.errors), ""
    directory = tempfile.mkdtemp(prefix="spyre-corpus-")
    command = []
    try:
        case_file = prepare(case, directory)
        tool, command = command_of(case, bin_dir, case_file, directory)
        shown = " ".join(shlex.quote(a) for a in command)
        try:
            proc = subprocess.run(command, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE,
                                  timeout=case.timeout, cwd=directory)
        except subprocess.TimeoutExpired:
            return shown, "timed out after %gs" % case.timeout, ""
        except OSError as error:
            return shown, "cannot run: %s" % error, ""
        stderr = proc.stderr.decode("utf-8", "replace")
        if show is not None:
            show.append((case, proc.returncode, stderr))
        reasons = []
        status = proc.returncode
        if status == 0:
            reasons.append("exit status 0 on bad input")
        elif status < 0:
            reasons.append("killed by signal %d" % -status)
        elif status >= 128:
            reasons.append("exit status %d (128 + signal?)" % status)
        for marker in CRASH_MARKERS:
            if marker in stderr:
                reasons.append("crash marker '%s' in stderr" % marker)
        if not stderr.strip():
            reasons.append("empty stderr")
        for text in case.expect:
            if text not in stderr:
                reasons.append("stderr lacks '%s'" % text)
        for pattern in case.expect_re:
            if not re.search(pattern, stderr):
                reasons.append("stderr does not match /%s/" % pattern)
        for text in case.expect_not:
            if text in stderr:
                reasons.append("stderr contains '%s'" % text)
        located = re.escape(case_file) + r":(\d+):(\d+): error:"
        for line_no, col in case.expect_loc:
            want = re.escape(case_file) + ":%d:%s: error:" % (
                line_no, col if col else r"\d+")
            if not re.search(want, stderr):
                reasons.append("no error located at %d:%s" %
                               (line_no, col or "*"))
        if tool in LOCATED_TOOLS and case.no_loc is None:
            lines = case.text.count("\n") + 1
            found = [int(m.group(1)) for m in re.finditer(located, stderr)]
            if not found:
                reasons.append("no 'file:line:col: error:' location into "
                               "the case (say NO-LOC: why if none is "
                               "possible)")
            elif not all(1 <= n <= lines for n in found):
                reasons.append("a location points outside the case")
        if reasons:
            return shown, "; ".join(reasons), stderr
        return None
    except Exception as error:  # a malformed case, not a tool failure
        return " ".join(command), "malformed case: %s" % error, ""
    finally:
        if not keep:
            shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", required=True,
                        help="directory of spyre-opt, spyre-translate, "
                        "spyre-run")
    parser.add_argument("-j", "--jobs", type=int,
                        default=min(4, os.cpu_count() or 1))
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print passing cases too, and the start of a "
                        "failing case's stderr")
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch directories")
    parser.add_argument("--show", action="store_true",
                        help="print every case's exit status and stderr "
                        "(to write EXPECT lines)")
    parser.add_argument("--min-cases", type=int, default=0,
                        help="fail unless the files hold at least this many "
                        "cases (guards against cases lost to a bad separator)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    cases = []
    for path in args.files:
        cases.extend(read_cases(path))
    shown = [] if args.show else None
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(
            lambda c: run_case(c, args.bin_dir, args.keep, shown), cases))
    for case, status, stderr in sorted(shown or [],
                                       key=lambda s: (s[0].path, s[0].index)):
        print("--- %s: exit %d\n%s" % (case.name(), status,
                                       "\n".join(stderr.splitlines()[:6])))
    failed = 0
    for case, result in zip(cases, results):
        if result is None:
            if args.verbose:
                print("PASS: %s" % case.name())
            continue
        failed += 1
        command, reason, stderr = result
        print("FAIL: %s: %s; command: %s" % (case.name(), reason, command))
        if args.verbose and stderr:
            print("\n".join("    | " + line
                            for line in stderr.splitlines()[:10]))
    if len(cases) < args.min_cases:
        failed += 1
        print("FAIL: only %d cases, expected at least %d" %
              (len(cases), args.min_cases))
    print("corpus: %d cases, %d failed" % (len(cases), failed))
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
