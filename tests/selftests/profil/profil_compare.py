#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""profil-ctl against perf on real programs (make compare; compare_test.sh).

Each case runs its program three times, in this order:
    perf record -e cpu-clock:u -F RATE     ("perf")
    profil-ctl run --rate RATE             ("profil-ctl")
    perf record -e cpu-clock:u -F RATE     ("perf 2", the noise floor)
and prints, as "# " lines: each object's share of all user samples for
the three runs; inside every object with at least 10 % of the samples,
the total-variation distance between the function shares (one key for
all of an object's unresolved samples, and one for all its PLT stubs,
on both sides); and, for a
pipeline, each program's share (by comm). Then one TAP result per
target (Documentation/profil-ctl.rst, "Accuracy against perf"):

  objects    every object's share within 3 points of perf's
  functions  inside each object with >= 10 %, the distance to perf (the
             mean of profil-ctl's distances to both perf runs) at most
             perf-vs-perf + 5 points
  processes  (pipelines) each comm's share within 3 points of perf's

profil-ctl runs between the two perf runs because under TCG the function
shares of one program move with the host's load, for perf and
profil-ctl alike: a change of conditions between two runs moves
perf-vs-perf as much as perf-vs-profil-ctl, where with profil-ctl last
it moved only the latter (Documentation/profil-ctl.rst, "Accuracy
against perf").

--fold-plt counts perf's PLT entries ("name@plt", which perf synthesizes
from .rela.plt) as unresolved, as a profil-ctl before it named them did;
the "w/ plt" column still shows the distance with them.

--check widens each bound by the sampling noise of the measurement (see
share_slack() and tvd_slack()), and takes as the floor of a function
distance the larger of perf-vs-perf and the distance sampling alone
predicts (tvd_expected()), so that a test that must pass every time
still fails on a real disagreement; and measures a case again, once,
when one of its targets failed: the second measurement's verdicts
stand (a bias of profil-ctl fails both, a burst of host load during one
run rarely hits two). Exit status: 0 when every asserted
target passes, 1 otherwise, 4 (kselftest SKIP) without perf.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.realpath(__file__))
UNKNOWN = "[unknown]"
PLT = "[plt stubs]"
KSFT_SKIP = 4


# ---------------------------------------------------------------- cases

def make_random(path, size):
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(random.Random(1).randbytes(size))


def make_words(path, lines):
    if not os.path.exists(path):
        r = random.Random(2)
        with open(path, "w") as f:
            for _ in range(lines):
                f.write("%s %d\n" % ("".join(r.choice("abcdefghij")
                                             for _ in range(6)),
                                     r.randrange(1000)))


def case_xz(work, bindir, scale):
    make_random(os.path.join(work, "rand.bin"), int(2000000 * scale))
    return ["xz", "-6", "-k", "-c", os.path.join(work, "rand.bin")]


def case_python(work, bindir, scale):
    return ["python3", os.path.join(bindir, "compare_json_re.py"),
            str(max(1, int(30 * scale)))]


def case_pipeline(work, bindir, scale):
    words = os.path.join(work, "words.txt")
    make_words(words, int(300000 * scale))
    return ["sh", "-c", "tr a-j A-J <'%s' | sort | uniq -c | sort -rn | "
            "md5sum" % words]


def case_dlopen(work, bindir, scale):
    return [os.path.join(bindir, "compare_dlopen"), str(max(1, int(100 * scale)))]


def case_cxx(work, bindir, scale):
    return [os.path.join(bindir, "compare_tmpl"), str(max(1, int(60 * scale)))]


# name: (what it is, argv builder, per-process target)
CASES = {
    "xz": ("stripped program, hot code in a shared library (liblzma)",
           case_xz, False),
    "python": ("interpreter running a script (json + re)", case_python,
               False),
    "pipeline": ("multi-process pipeline under sh -c", case_pipeline, True),
    "dlopen": ("hot code in a dlopen()ed object", case_dlopen, False),
    "cxx": ("C++ templates and inlining (g++ -O2)", case_cxx, False),
}


# ---------------------------------------------------------------- runs

class Profile:
    """Samples as {(comm, object, function): count}; function or comm is
    None where the tool did not say."""

    def __init__(self):
        self.counts = Counter()
        self.has_functions = True
        self.has_processes = True

    def total(self):
        return sum(self.counts.values())

    def by(self, pick):
        c = Counter()
        for k, n in self.counts.items():
            c[pick(k)] += n
        return c

    def objects(self):
        return self.by(lambda k: k[1])

    def comms(self):
        return self.by(lambda k: k[0])

    def functions(self, obj, plt=True):
        """@obj's samples by function, aliases merged, its PLT stubs as
        one key; without @plt, samples in PLT stubs count as unresolved.

        One key, because perf 6.1 cannot name them stub by stub: it
        names stub i after .rela.plt entry i, which is not the stub's
        own entry once IRELATIVE ones are mixed in (libc.so.6), and an
        IRELATIVE stub (libc calling its own strlen) "@plt"."""
        c, al = Counter(), aliases(obj) if os.path.exists(obj) else {}
        for (comm, o, f), n in self.counts.items():
            if o == obj:
                if f.endswith("@plt"):
                    f = PLT if plt else UNKNOWN
                c[al.get(f, f)] += n
        return c


def clean_name(name):
    """One spelling of a symbol for both tools: no version suffix
    ("memcpy@@GLIBC_2.14"); "name@plt", perf's PLT entries, stays."""
    if not name or name in ("[unknown]", "[not covered]"):
        return UNKNOWN
    base, at, ver = name.partition("@")
    return name if not at or ver == "plt" or not base else base


ALIASES = {}


def aliases(obj):
    """{name: one name (the first not starting with "_") of those at its address} of
    @obj's code symbols, from the file and from its separate debug file
    (by build-id), as both tools read them: the same code under two
    names ("memcpy", "memmove") is one function, whichever each tool
    shows."""
    if obj in ALIASES:
        return ALIASES[obj]
    files = [obj]
    try:
        notes = subprocess.run(["readelf", "-n", obj], capture_output=True,
                               text=True).stdout
        m = re.search(r"Build ID: ([0-9a-f]{2})([0-9a-f]+)", notes)
        if m:
            files.append("/usr/lib/debug/.build-id/%s/%s.debug" % m.groups())
    except OSError:
        pass
    at = defaultdict(set)
    for f in files:
        for dyn in ([], ["-D"]):
            if not os.path.exists(f):
                continue
            out = subprocess.run(["nm", "-C", "--defined-only"] + dyn + [f],
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split(" ", 2)
                if len(parts) == 3 and parts[1] in "TtWwi":
                    at[int(parts[0], 16)].add(clean_name(parts[2]))
    m = {}
    for names in at.values():
        first = min(names, key=lambda n: (n.startswith("_"), n))
        for n in names:
            m[n] = first
    ALIASES[obj] = m
    return m


def demangle_all(names):
    """{mangled: demangled} through c++filt, as perf's script has no
    demangler we can count on (Debian's perf 6.1 has no libbfd)."""
    mangled = sorted(n for n in names if n and n.startswith("_Z"))
    if not mangled or not shutil.which("c++filt"):
        return {}
    out = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return dict(zip(mangled, out.splitlines()))


PERF_LINE = re.compile(r"^\s*(.*?)\s+(\d+)\s+([0-9a-f]+)\s+(.*) \((.*)\)$")


def perf_run(argv, rate, data, log):
    cmd = ["perf", "record", "-q", "-N", "-e", "cpu-clock:u", "-F",
           str(rate), "-o", data, "--"] + argv
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=log, check=True)
    out = subprocess.run(["perf", "script", "-i", data, "--no-demangle",
                          "-F", "comm,pid,ip,sym,dso"],
                         capture_output=True, text=True, check=True).stdout
    p = Profile()
    raw = Counter()
    for line in out.splitlines():
        m = PERF_LINE.match(line)
        if not m:
            continue
        comm, _pid, _ip, sym, dso = m.groups()
        raw[(comm, dso, sym)] += 1
    dm = demangle_all({k[2] for k in raw})
    for (comm, dso, sym), n in raw.items():
        p.counts[(comm, dso, clean_name(dm.get(sym, sym)))] += n
    return p


def profil_parse(path):
    """profil-ctl's report, in one place: the JSON of --format=json when
    profil-ctl writes it (parts with function rows, per process), else
    the per-object summary ("PCT% SAMPLES PATH" lines) of profil-ctl
    before its whole-program renderer, which has neither functions nor
    processes."""
    with open(path) as f:
        text = f.read()
    p = Profile()
    if text.lstrip().startswith("{"):
        doc = json.loads(text)
        for part in doc.get("parts", []):
            comm, obj = part.get("comm"), part.get("object") or part["binary"]
            fde = re.compile(re.escape(os.path.basename(obj or "")) +
                             r"\+0x[0-9a-f]+")
            for row in part.get("rows", []):
                name = clean_name(row["function"])
                # A range profil-ctl names only by its unwind entry
                # (OBJECT+0xSTART) has no name perf could show: it is
                # perf's [unknown] on both sides.
                if name and fde.fullmatch(name):
                    name = UNKNOWN
                p.counts[(comm, obj, name)] += round(float(row["count"]))
            n = round(float(part.get("unknown", {}).get("count", 0)))
            n += round(float(part.get("uncovered", {}).get("count", 0)))
            if n:
                p.counts[(comm, obj, UNKNOWN)] += n
        p.has_processes = any(k[0] is not None for k in p.counts)
        return p
    for line in text.splitlines():
        m = re.match(r"^\s*[0-9.]+%\s+(\d+)\s+(.*)$", line)
        if m:
            p.counts[(None, m.group(2), None)] += int(m.group(1))
    p.has_functions = p.has_processes = False
    return p


def ctl_run(ctl, argv, rate, report, log):
    """The profile, and profil-ctl's last line ("profil-ctl run: ...
    periods missed ..."): many missed periods are a host that was busy."""
    cmd = [ctl, "run", "--rate", str(rate), "--per-process",
           "--format=json", "-o", report, "--"] + argv
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log.write(r.stderr)
    log.flush()
    if r.returncode:
        raise subprocess.CalledProcessError(r.returncode, cmd)
    summary = [line for line in r.stderr.decode(errors="replace").splitlines()
               if line.startswith("profil-ctl run:")]
    return profil_parse(report), summary[-1] if summary else ""


# ---------------------------------------------------------------- numbers

def shares(c):
    t = sum(c.values())
    return {k: 100.0 * v / t for k, v in c.items()} if t else {}


def tvd(a, b):
    """Total-variation distance of two counters' distributions, points."""
    pa, pb = shares(a), shares(b)
    return 0.5 * sum(abs(pa.get(k, 0) - pb.get(k, 0))
                     for k in set(pa) | set(pb))


def tvd_mean(fa, fb, fc):
    """profil-ctl's (@fc) distance to perf: the mean of its distances to
    the perf runs before (@fa) and after (@fb) it, points."""
    return 0.5 * (tvd(fa, fc) + tvd(fb, fc))


def share_slack(pct, n1, n2):
    """Three standard deviations of the difference of two sampled shares."""
    p = pct / 100.0
    if not n1 or not n2:
        return 0.0
    return 300.0 * math.sqrt(p * (1 - p) * (1.0 / n1 + 1.0 / n2))


def tvd_slack(n):
    """The sampling noise of a distance measured on n samples, points: a
    second noisy estimate beyond the perf-vs-perf one."""
    return 100.0 / math.sqrt(n) if n else 100.0


def tvd_expected(fa, fc):
    """The distance, in points, two runs of one program would show from
    sampling alone: half the expected sum of |share_a - share_c| over the
    functions, each difference ~ N(0, p (1 - p) (1/na + 1/nc)) with p the
    pooled share. A single perf-vs-perf floor is one draw of that noise
    and can fall well below it."""
    na, nc = sum(fa.values()), sum(fc.values())
    if not na or not nc:
        return 100.0
    total = 0.0
    for fn in set(fa) | set(fc):
        p = (fa.get(fn, 0) + fc.get(fn, 0)) / float(na + nc)
        total += math.sqrt(p * (1 - p) * (1.0 / na + 1.0 / nc))
    return 100.0 * 0.5 * total * math.sqrt(2 / math.pi)


def short(path, width=44):
    return path if len(path) <= width else "..." + path[-(width - 3):]


class Verdicts:
    def __init__(self):
        self.results = []

    def add(self, ok, what):
        self.results.append((ok, what))

    def failed(self):
        return sum(1 for ok, _ in self.results if ok is False)


def compare_case(name, a, b, c, check, fold_plt, v, out, known=()):
    """Prints the tables of one case and records its verdicts."""
    _, _, per_process = CASES[name]
    oa, ob, oc = a.objects(), b.objects(), c.objects()
    ta, tb, tc = a.total(), b.total(), c.total()
    sa, sb, sc = shares(oa), shares(ob), shares(oc)
    out("samples: perf %d, perf again %d, profil-ctl %d" % (ta, tb, tc))
    out("%-44s %7s %7s %10s %6s %6s" % ("object (% of user samples)", "perf",
                                        "perf 2", "profil-ctl", "diff",
                                        "bound"))
    worst, fails = 0.0, []
    for obj in sorted(set(sa) | set(sc), key=lambda k: -max(
            sa.get(k, 0), sc.get(k, 0))):
        pa, pc = sa.get(obj, 0.0), sc.get(obj, 0.0)
        bound = 3.0 + (share_slack(max(pa, pc), ta, tc) if check else 0)
        d = pc - pa
        if abs(d) > bound:
            fails.append(short(obj, 30))
        worst = max(worst, abs(d))
        if max(pa, pc, sb.get(obj, 0)) >= 0.1:
            out("%-44s %7.2f %7.2f %10.2f %+6.2f %6.1f" % (
                short(obj), pa, sb.get(obj, 0.0), pc, d, bound))
    v.add(not fails, "%s: objects within 3 points of perf (worst %.2f)%s" % (
        name, worst, "; off: " + ", ".join(fails) if fails else ""))

    big = [o for o in sorted(sa, key=lambda k: -sa[k]) if sa[o] >= 10.0 or
           sc.get(o, 0) >= 10.0]
    if not c.has_functions:
        out("functions: profil-ctl's report has no function rows yet")
        v.add(None, "%s: function distance # SKIP no function rows in "
              "profil-ctl's report" % name)
    else:
        out("%-44s %7s %10s %6s %6s %7s" % (
            "functions in objects >= 10 %" + (", perf's @plt as [unknown]"
                                              if fold_plt else ""),
            "perf 2", "profil-ctl", "excess", "bound",
            "w/ plt" if fold_plt else "no plt"))
        fails, skipped = [], []
        for obj in big:
            plt = not fold_plt
            fa, fb = a.functions(obj, plt), b.functions(obj, plt)
            fc = c.functions(obj)
            # profil-ctl ran between the two perf runs: its distance
            # to both, as conditions that changed between two runs
            # count in the floor too.
            floor, dist = tvd(fa, fb), tvd_mean(fa, fb, fc)
            if check:
                # The floor as sampling predicts it, when the one draw
                # perf-vs-perf made came out lower.
                floor = max(floor, tvd_expected(fa, fc))
            bound = 5.0 + (tvd_slack(min(sum(fa.values()),
                                         sum(fc.values()))) if check else 0)
            if dist - floor > bound:
                what = "%s %.1f vs %.1f" % (short(obj, 30), dist, floor)
                if any(k in obj for k in known):
                    skipped.append(what)
                else:
                    fails.append(what)
            other = tvd_mean(a.functions(obj, not plt),
                             b.functions(obj, not plt), fc)
            out("%-44s %7.1f %10.1f %+6.1f %6.1f %7.1f" % (
                short(obj), floor, dist, dist - floor, bound, other))
            top = (fa + fc).most_common(6)
            for fn, _ in top:
                out("    %-40s %7.2f %7.2f %10.2f" % (
                    short(fn, 40), shares(fa).get(fn, 0),
                    shares(fb).get(fn, 0), shares(fc).get(fn, 0)))
        v.add(not fails, "%s: function distance <= perf-vs-perf + 5%s%s" % (
            name, " (perf's @plt as [unknown])" if fold_plt else "",
            "; off: " + ", ".join(fails) if fails else ""))
        for what in skipped:
            v.add(None, "%s: function distance of %s # SKIP a known "
                  "difference (--known)" % (name, what))

    if not per_process:
        return
    if not c.has_processes:
        out("processes: profil-ctl's report has no process rows yet")
        v.add(None, "%s: processes # SKIP no process rows in profil-ctl's "
              "report" % name)
        return
    pa_, pb_, pc_ = shares(a.comms()), shares(b.comms()), shares(c.comms())
    out("%-44s %7s %7s %10s %6s %6s" % ("process (comm)", "perf", "perf 2",
                                        "profil-ctl", "diff", "bound"))
    fails, worst = [], 0.0
    for comm in sorted(set(pa_) | set(pc_), key=lambda k: -pa_.get(k, 0)):
        x, z = pa_.get(comm, 0.0), pc_.get(comm, 0.0)
        bound = 3.0 + (share_slack(max(x, z), ta, tc) if check else 0)
        if abs(z - x) > bound:
            fails.append(comm)
        worst = max(worst, abs(z - x))
        out("%-44s %7.2f %7.2f %10.2f %+6.2f %6.1f" % (
            comm, x, pb_.get(comm, 0.0), z, z - x, bound))
    v.add(not fails, "%s: each process within 3 points of perf (worst "
          "%.2f)%s" % (name, worst, "; off: " + ", ".join(fails)
                       if fails else ""))


# ---------------------------------------------------------------- main

def measure_case(o, name, argv, work, attempt, log, v):
    """Runs perf, profil-ctl, perf on @argv, in that order (see the top of
    this file), and records the case's verdicts in @v; False if a run
    failed."""
    f = os.path.join(work, name + (".again" if attempt else ""))
    try:
        a = perf_run(argv, o.rate, f + ".1.data", log)
        c, summary = ctl_run(o.ctl, argv, o.rate, f + ".profil.json", log)
        b = perf_run(argv, o.rate, f + ".2.data", log)
    except subprocess.CalledProcessError as e:
        print("# %s failed: %s" % (name, e))
        v.add(False, "%s: runs" % name)
        return False
    if summary:
        print("# " + summary)
    compare_case(name, a, b, c, o.check, o.fold_plt,
                 v, lambda s: print("# " + s),
                 [k.split(":", 1)[1] for k in o.known
                  if k.split(":", 1)[0] == name])
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rate", type=int, default=1000)
    ap.add_argument("--check", action="store_true",
                    help="bounds widened by the sampling noise")
    ap.add_argument("--fold-plt", action="store_true",
                    help="count perf's PLT entries (name@plt) as unresolved")
    ap.add_argument("--known", action="append", default=[],
                    metavar="CASE:OBJECT",
                    help="a function distance of OBJECT (a part of its "
                    "path) in CASE that is a known difference: reported, "
                    "skipped, not failed")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="the workloads' length, relative")
    ap.add_argument("--work", default=os.environ.get("OUT", "/tmp"),
                    help="where data files go (default $OUT)")
    ap.add_argument("--bindir", default=HERE,
                    help="compare_dlopen, compare_tmpl (default: here)")
    ap.add_argument("--profil-ctl", dest="ctl", default=os.path.join(
        os.environ.get("TOP", os.path.join(HERE, "../../..")),
        "cli/profil-ctl"))
    ap.add_argument("cases", nargs="*", default=list(CASES),
                    help="of: " + " ".join(CASES))
    o = ap.parse_args()

    print("TAP version 13")
    for name in o.cases:
        if name not in CASES:
            ap.error("no case %r" % name)
    if not shutil.which("perf"):
        print("1..0 # SKIP no perf (linux-perf)")
        return KSFT_SKIP
    if not os.access(o.ctl, os.X_OK):
        print("1..0 # SKIP no %s" % o.ctl)
        return KSFT_SKIP
    work = os.path.join(o.work, "compare")
    os.makedirs(work, exist_ok=True)
    v = Verdicts()
    log = open(os.path.join(work, "stderr.log"), "ab")
    for name in o.cases:
        what, build, _ = CASES[name]
        argv = build(work, o.bindir, o.scale)
        print("#\n# == %s: %s\n# $ %s" % (name, what, " ".join(argv)))
        sys.stdout.flush()
        # --check: a case with a failed target is measured once more,
        # and the second measurement's verdicts stand.
        for attempt in range(2 if o.check else 1):
            cv = Verdicts()
            if not measure_case(o, name, argv, work, attempt, log, cv) or \
                    not cv.failed() or attempt or not o.check:
                break
            for ok, w in cv.results:
                if ok is False:
                    print("# first measurement: not ok %s" % w)
            print("# %s: measuring again" % name)
        v.results += cv.results
        sys.stdout.flush()
    print("1..%d" % len(v.results))
    for i, (ok, what) in enumerate(v.results, 1):
        print("%s %d %s" % ("not ok" if ok is False else "ok", i, what))
    return 1 if v.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
