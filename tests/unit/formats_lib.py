# SPDX-License-Identifier: GPL-2.0
"""Inputs and parsers of the report-format tests (callgrind_test.py,
html_test.py): saved profiles written from the programs tests/unit
builds, profil-ctl's own text reports read back, TAP output.
"""
import os
import re
import subprocess
import sys

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.environ.get("UNIT_OUT", os.path.join(TOP, "build", "unit"))
CTL = os.path.join(TOP, "cli", "profil-ctl")
SYM = os.path.join(OUT, "cli_sym_target")
SO = os.path.join(OUT, "cli_so_target.so")
PG = os.path.join(OUT, "cli_pg_target")
FDE = os.path.join(OUT, "cli_fde_target")
FDE_STRIPPED = FDE + ".stripped"
DIR = os.path.join(OUT, "formats")

failed = False


def ok(cond, what):
    """One TAP result; the test fails at its end if any is not ok."""
    global failed
    print(("ok - " if cond else "not ok - ") + what, flush=True)
    failed |= not cond
    return cond


def done():
    sys.exit(1 if failed else 0)


def skip_unless(tool):
    if not any(os.access(os.path.join(d, tool), os.X_OK)
               for d in os.environ.get("PATH", "").split(":")):
        print(f"ok - {tool} not installed (scripts/install-deps.sh) # SKIP")
        sys.exit(4)


def run(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True,
                          **kw).stdout


def func_addr(path, name):
    for line in run("nm", path).splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16)
    raise SystemExit(f"not ok - {path}: no function {name}")


def func_bins(path, name, low, counts):
    """(index, count) of the bins of @name in 4-byte bins from @low: the
    second bin from its entry on, so that none straddles a bound."""
    k = (func_addr(path, name) - low) // 4 + 1
    return [(k + i, c) for i, c in enumerate(counts)]


def write_small(path, unknowns=False, command=None):
    """Two processes, the program and a shared library. The text report:
    target_alpha 10, target_beta 7, main 1; so_work 11 + 4, 2 samples
    uncovered in the library. With @unknowns, samples in no function of
    either object too: the program's 3 (past its code), the library's 6
    (in its data). With @command, the command line it records (ASCII
    letters, digits, spaces and dashes only: written as is, a space as
    %20)."""
    lo, hi, slo, shi = 0x401000, 0x402000, 0x1000, 0x1200
    bins = sorted(func_bins(SYM, "target_alpha", lo, [7, 3]) +
                  func_bins(SYM, "target_beta", lo, [5, 2]) +
                  func_bins(SYM, "main", lo, [1]))
    rows = ["profil-ctl-profile 1", "rate 1000", "bin-bytes 4",
            "acct 40 1 2 0 0 0 0 0"]
    if command:
        rows.append('command "%s"' % command.replace(" ", "%20"))
    rows += ["objects 2", f'object 0 - "{SYM}"',
            f'object 1 - "{SO}"', "processes 2",
            f'process 0 100 1 "cli_sym_target" "{SYM}" 30 1 2 0 0 0 0 0',
            f'process 1 101 100 "cli_sym_target" "{SYM}" 10 0 0 0 0 0 0 0',
            "counts 3", f"count 0 0 0 {2 if unknowns else 1}",
            f"range {lo:#x} {hi:#x} {(hi - lo) // 4} {len(bins)}"]
    rows += [f"bin {k} {c}" for k, c in bins]
    if unknowns:
        rows += ["range 0x500000 0x500004 1 1", "bin 0 3"]
    for proc, uncov, n in ((0, 2, 11), (1, 0, 4)):
        more = unknowns and proc == 1
        rows += [f"count {proc} 1 {uncov} {2 if more else 1}",
                 f"range {slo:#x} {shi:#x} {(shi - slo) // 4} 1"]
        rows += [f"bin {k} {c}" for k, c in
                 func_bins(SO, "so_work", slo, [n])]
        if more:
            rows += ["range 0x3000 0x3004 1 1", "bin 0 6"]
    with open(path, "w") as f:
        f.write("\n".join(rows + ["end"]) + "\n")


def write_stripped(path):
    """One process of the stripped cli_fde_target: 10 samples in fde_loop
    and 5 in main's cold part, which only their FDEs bound, 2 in no FDE.
    Returns {function name in the report: count}: the ranges are named
    after the file and the function's address in the unstripped copy."""
    loop, cold = func_addr(FDE, "fde_loop"), func_addr(FDE, "main.cold")
    bl, bc = (loop + 3) & ~3, (cold + 3) & ~3
    rows = ["profil-ctl-profile 1", "rate 1000", "bin-bytes 4",
            "acct - - - - - - - -", "objects 1",
            f'object 0 - "{FDE_STRIPPED}"', "processes 1",
            f'process 0 300 1 "fde" "{FDE_STRIPPED}" - - - - - - - -',
            "counts 1", "count 0 0 0 3", "range 0x4 0x8 1 1", "bin 0 2",
            f"range {bc:#x} {bc + 4:#x} 1 1", "bin 0 5",
            f"range {bl:#x} {bl + 8:#x} 2 2", "bin 0 7", "bin 1 3"]
    with open(path, "w") as f:
        f.write("\n".join(rows + ["end"]) + "\n")
    base = os.path.basename(FDE_STRIPPED)
    return {f"{base}+{loop:#x}": 10, f"{base}+{cold:#x}": 5}


def text_range(path):
    """The .text of @path as 4-byte bins: (low, high, nbins)."""
    for line in run("objdump", "-h", path).splitlines():
        f = line.split()
        if len(f) > 4 and f[1] == ".text":
            size, vma = int(f[2], 16), int(f[3], 16)
            lo, hi = vma - vma % 4, vma + size
            hi += (4 - hi % 4) % 4
            return lo, hi, (hi - lo) // 4
    raise SystemExit(f"not ok - {path}: no .text")


def write_large(path, objects):
    """One process; a sample (1 to 7) in every 4-byte bin of each
    object's .text."""
    rows = ["profil-ctl-profile 1", "rate 1000", "bin-bytes 4",
            "acct - - - - - - - -", f"objects {len(objects)}"]
    rows += [f'object {i} - "{o}"' for i, o in enumerate(objects)]
    rows += ["processes 1",
             f'process 0 200 1 "large" "{objects[0]}" - - - - - - - -',
             f"counts {len(objects)}"]
    for i, o in enumerate(objects):
        lo, hi, n = text_range(o)
        rows += [f"count 0 {i} 0 1", f"range {lo:#x} {hi:#x} {n} {n}"]
        rows += [f"bin {k} {1 + k % 7}" for k in range(n)]
    with open(path, "w") as f:
        f.write("\n".join(rows + ["end"]) + "\n")


ROW = re.compile(r"^ *(\d+(?:\.\d+)?) +\d+\.\d+ +(?:[\d.]+|-)"
                 r"(?: +(\d+))?  (.*?)(?: +\d+\.\d{4})?$")


LIST_HEAD = re.compile(r"^ +count +% +seconds .*  symbol$")
LIST_TOTAL = re.compile(r"^ *[\d.]+ +[\d.]+ +(?:[\d.]+|-) +total$")


def list_funcs(text, calls=False):
    """{(object, function): count} of a whole profile's ranked list
    (report -v: objects by path), summed over its other keys; with
    @calls, the calls column instead (functions with some)."""
    res, cols = {}, None
    for line in text.splitlines():
        if LIST_HEAD.match(line):
            cols = {k: line.index("  " + k) + 2
                    for k in ("calls", "object", "symbol")
                    if "  " + k in line}
            continue
        m = re.match(r"^ *(\d+(?:\.\d+)?) ", line)
        if not cols or not m or LIST_TOTAL.match(line):
            continue
        obj = (line[cols["object"]:cols["symbol"]].strip()
               if "object" in cols else None)
        key = (obj, line[cols["symbol"]:].strip())
        if calls:
            if "calls" not in cols:
                continue
            end = cols["calls"] + len("calls")
            v = line[end - 9:end].strip()
            if v:
                res[key] = res.get(key, 0) + int(v)
        else:
            res[key] = res.get(key, 0) + float(m.group(1))
    return res


def text_funcs(text, calls=False):
    """{(object, function): count} of a text function view: whole
    profiles (their ranked list, list_funcs(), or one "== OBJECT..."
    section each, --per-object) or one binary (object None); with
    @calls, the calls column instead (functions with one)."""
    res, obj = {}, None
    if any(LIST_HEAD.match(line) for line in text.splitlines()):
        return list_funcs(text, calls)
    for line in text.splitlines():
        m = re.match(r"^== (.*?)(?: \(build-id [0-9a-f]+\))?: \d+ samples", line)
        if m:
            obj = m.group(1)
            continue
        m = ROW.match(line)
        if not m or m.group(3).strip() == "total":
            continue
        if calls:
            if m.group(2):
                res[(obj, m.group(3).strip())] = int(m.group(2))
        else:
            res[(obj, m.group(3).strip())] = float(m.group(1))
    return res


def text_lines(text):
    """{(file, line): count} of a text line view, summed over functions."""
    res = {}
    for line in text.splitlines():
        m = re.match(r"^ *(\d+) +\d+\.\d+ +(?:[\d.]+|-)  (/.*?):(\d+)"
                     r"(?: \(.*\))?$", line)
        if m:
            key = (m.group(2), int(m.group(3)))
            res[key] = res.get(key, 0) + int(m.group(1))
    return res
