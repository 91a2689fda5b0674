#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""profil-ctl report --format=callgrind, read by its consumer,
callgrind_annotate (valgrind), against profil-ctl's own text report:
samples per function (--threshold=100 lists them all), per source line
(the auto-annotated sources against --lines), the program total, and the
calls of a -pg program's arcs (--tree=caller against the calls column).

Inputs: a saved profile of two objects and two processes written here,
one of the stripped cli_fde_target (functions named after their FDE
ranges, no source lines), and the gmon.out of cli_pg_target (glibc -pg, run here). Files stay in
build/unit/formats. Exit 4 (SKIP) without callgrind_annotate.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # noqa: E402 (no __pycache__ in the tree)
from formats_lib import (CTL, DIR, PG, SO, SYM, done, ok, run, skip_unless,
                         text_funcs, text_lines, write_small, write_stripped)

NUM = r"([\d,]+)"


def annotate(cg, *opts):
    # From /: callgrind_annotate strips the working directory from paths.
    return run("callgrind_annotate", "--threshold=100", *opts, cg, cwd="/")


def cg_funcs(out):
    """{(object, function): samples}, summed over file:function keys
    (a function with inlined lines from another file has several)."""
    res = {}
    for line in out.splitlines():
        m = re.match(r"^ *" + NUM + r" \( *[\d.]+%\)  (.*?):(.*) \[(.*)\]$",
                     line)
        if m:
            key = (m.group(4), m.group(3))
            res[key] = res.get(key, 0) + int(m.group(1).replace(",", ""))
    return res


def cg_total(out):
    m = re.search(r"^ *" + NUM + r" \(100\.0%\)  PROGRAM TOTALS$", out, re.M)
    return int(m.group(1).replace(",", "")) if m else None


def cg_lines(out):
    """{(file, line): samples} of the auto-annotated sources."""
    res, src, ln = {}, None, 0
    for line in out.splitlines():
        m = re.match(r"^-- Auto-annotated source: (.*)$", line)
        if m:
            src, ln = m.group(1), None
            continue
        if src is None:
            continue
        if ln is None:          # the section's header, up to a blank line
            ln = 1 if not line.strip() else None
            continue
        m = re.match(r"^-- line (\d+) -+$", line)
        if m:
            ln = int(m.group(1))
            continue
        if re.match(r"^-{20,}$", line):
            src = None
            continue
        m = re.match(r"^ *(\.|" + NUM + r"(?: \( *[\d.]+%\))?) +(=>|<=)?",
                     line)
        if not m or m.group(3):  # a call line names no source line
            continue
        if m.group(2) and int(m.group(2).replace(",", "")):
            res[(src, ln)] = int(m.group(2).replace(",", ""))
        ln += 1
    return res


def cg_calls(out):
    """{(object, function): calls} of --tree=caller: the "(Nx)" of its
    callers' lines, above the function's own "*" line."""
    res, pending = {}, 0
    for line in out.splitlines():
        m = re.search(r"< .*:.* \(" + NUM + r"x\) \[", line)
        if m:
            pending += int(m.group(1).replace(",", ""))
            continue
        m = re.match(r"^ *(?:\.|[\d,]+(?: \( *[\d.]+%\))?) +\*  .*?:(.*) "
                     r"\[(.*)\]$", line)
        if m:
            if pending:
                res[(m.group(2), m.group(1))] = pending
            pending = 0
    return res


def check(name, report_args, lines_too=True, text_args=()):
    text = run(CTL, "report", *text_args, *report_args)
    lines = run(CTL, "report", "--lines", *report_args)
    cg = os.path.join(DIR, name + ".callgrind")
    run(CTL, "report", "--format=callgrind", "-o", cg, *report_args)
    out = annotate(cg, "--auto=yes", "--context=100000")

    want = text_funcs(text)
    obj = next(iter(want))[0] if want else None
    got = cg_funcs(out)
    if obj is None:             # one binary: its report names no object
        got = {(None, f): n for (o, f), n in got.items()}
    split = {k for k, v in want.items() if v != int(v)}
    want = {k: int(v) for k, v in want.items() if k not in split}
    got = {k: v for k, v in got.items() if k not in split}
    ok(got == want, f"{name}: samples per function as the text report "
       f"({len(want)} functions{', %d split bins left out' % len(split) if split else ''})"
       + ("" if got == want else f": text {want}, callgrind {got}"))
    total = re.search(r"^ *(\d+) +100\.00 .* total", text, re.M)
    m = re.search(r"^# (?:user samples +)?(\d+)", text, re.M)
    want_total = int(m.group(1) if m else total.group(1))
    ok(cg_total(out) == want_total,
       f"{name}: PROGRAM TOTALS {cg_total(out)}, the text's {want_total}")
    want_l, got_l = text_lines(lines), cg_lines(out)
    ok((want_l or not lines_too) and got_l == want_l,
       f"{name}: samples per source line as --lines ({len(want_l)} lines)"
       + ("" if got_l == want_l else f": text {want_l}, callgrind {got_l}"))
    return text, cg, got


def main():
    skip_unless("callgrind_annotate")
    os.makedirs(DIR, exist_ok=True)
    small = os.path.join(DIR, "small.profile")
    write_small(small)
    check("saved", [small], text_args=["-v"])

    # Functions without a source file in two objects, of one name
    # ([unknown]): each object's apart, not "???:[unknown]" for both.
    unknowns = os.path.join(DIR, "unknowns.profile")
    write_small(unknowns, unknowns=True)
    _, _, got = check("unknowns", [unknowns], text_args=["-v"])
    ok(got.get((SYM, "[unknown]")) == 3 and
       got.get((SO, "[unknown]")) == 6,
       f"unknowns: [unknown] 3 in the program, 6 in the library: {got}")

    # A stripped program: functions only FDEs bound, by their names.
    stripped = os.path.join(DIR, "stripped.profile")
    names = write_stripped(stripped)
    _, _, got = check("stripped", [stripped], lines_too=False,
                      text_args=["-v"])
    got = {f: n for (_, f), n in got.items()}
    ok(all(got.get(f) == n for f, n in names.items()),
       f"stripped: the FDE ranges by name, {names}: {got}")

    # A -pg program's gmon.out: samples and arcs.
    run(PG, "2000000", cwd=DIR)
    gmon = os.path.join(DIR, "gmon.out")
    text, cg, _ = check("gmon", [PG, gmon])
    want = {f: n for (_, f), n in text_funcs(text, calls=True).items()}
    got = {f: n for (_, f), n in
           cg_calls(annotate(cg, "--auto=no", "--tree=caller")).items()}
    ok(want and got == want, f"gmon: calls per function as the text's "
       f"calls column ({want})" + ("" if got == want else f": {got}"))
    body = open(cg).read()
    ok(re.search(r"^fn=\(\d+\) \S", body, re.M) and
       re.search(r"^cfn=\(\d+\)$", body, re.M),
       "names compressed: fn=(N) name once, cfn=(N) after")
    done()


if __name__ == "__main__":
    main()
