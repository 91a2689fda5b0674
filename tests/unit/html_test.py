#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""profil-ctl report --format=html, opened by its consumer, headless
Chromium: the DOM it dumps, once the page's script has run, must hold
profil-ctl's text report's numbers (samples and calls per function, the
summary, samples per source line as --lines; a stripped program's
functions by their FDE ranges' names), the function table sorted
by the #sort= the address asks for, the chart's bars; the page must load
nothing (no network, no external script, style or font); a profile of
every bin of profil-ctl and libc stays under the page's bound and is
dumped within the timeout. A screenshot of the small page is kept:
build/unit/formats/saved.png. Exit 4 (SKIP) without chromium.
"""
import html
import html.parser
import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # noqa: E402 (no __pycache__ in the tree)
from formats_lib import (CTL, DIR, PG, done, func_bins, ok, run,
                         skip_unless, text_funcs, text_lines, text_range,
                         write_large, write_small, write_stripped)

# The page's bound for a profile of any size (html.h's limits: 1000
# functions, 20 files of 1000 lines of at most 160 escaped bytes).
MAX_BYTES = 8 << 20
CHROMIUM_TIMEOUT = 60


def brief(x):
    """@x for a message: its first 300 characters."""
    t = repr(x)
    return t if len(t) <= 300 else t[:300] + "..."


def chromium(*args):
    profile = os.path.join(DIR, "chromium-profile")
    return subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
         "--no-first-run", "--user-data-dir=" + profile, *args],
        check=True, capture_output=True, text=True,
        timeout=CHROMIUM_TIMEOUT).stdout


class Dom(html.parser.HTMLParser):
    """The function table's rows, the source rows, the summary cells,
    the chart's bar titles and every element's ids, from a dumped DOM."""

    def __init__(self):
        super().__init__()
        self.table = None       # id of the table being read
        self.heads, self.rows, self.row = [], [], None
        self.cell = None
        self.src = {}           # (file, line): count
        self.files = {}         # "F3": path
        self.ids = {}
        self.bars, self.attrs = [], {}
        self.stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append((tag, a))
        if "id" in a:
            self.ids[a["id"]] = ""
        if tag == "table":
            self.table = a.get("id", "src")
            if self.table == "funcs":
                self.attrs = a
        elif tag == "tr" and self.table:
            self.row = {"id": a.get("id"), "cells": []}
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        tag_a = self.stack.pop() if self.stack else (tag, {})
        if tag in ("td", "th") and self.row is not None:
            self.row["cells"].append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.end_row()
            self.row = None
        elif tag == "table":
            self.table = None
        elif "id" in tag_a[1]:
            self.ids[tag_a[1]["id"]] = self.ids[tag_a[1]["id"]].strip()

    def end_row(self):
        cells, rid = self.row["cells"], self.row["id"]
        if self.table == "funcs":
            (self.heads if not self.heads else self.rows).append(cells)
        elif rid and re.match(r"^F\d+-L\d+$", rid) and cells[0]:
            f, ln = rid.split("-L")
            self.src[(f, int(ln))] = int(cells[0])

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        for tag, a in self.stack:
            if "id" in a:
                self.ids[a["id"]] += data
        if self.stack and self.stack[-1][0] == "title" and \
                any(t == "svg" for t, _ in self.stack):
            self.bars.append(data)


def dom_of(page, fragment=""):
    d = Dom()
    d.feed(chromium("--dump-dom", "file://" + page + fragment))
    return d


def dom_funcs(d, key="samples"):
    col = {h: i for i, h in enumerate(d.heads[0])}
    res = {}
    for r in d.rows:
        v = r[col[key]]
        res[(r[col["object"]], r[col["function"]])] = float(v) if v else 0
    return res


def self_contained(page, name):
    text = open(page).read()
    bad = re.findall(r"<(?:link|iframe|img|object|embed)\b|\bsrc=|@import|"
                     r"url\(|https?://(?!www\.w3\.org/2000/svg\")", text)
    ok(not bad, f"{name}: self-contained (no link, src=, url(), @import, "
       f"address)" + (f": {bad}" if bad else ""))


def check_small():
    small = os.path.join(DIR, "small.profile")
    page = os.path.join(DIR, "saved.html")
    write_small(small, command="cli_sym_target --fast 3")
    text = run(CTL, "report", "-v", small)
    lines = run(CTL, "report", "--lines", small)
    run(CTL, "report", "--format=html", "-o", page, small)
    self_contained(page, "saved")
    dom = chromium("--dump-dom", "file://" + page)
    ok("<title>profil-ctl: cli_sym_target --fast 3</title>" in dom and
       "Profile of <code>cli_sym_target --fast 3</code>" in dom,
       "saved: Chromium shows the command line profiled as the title "
       "and heading")
    d = dom_of(page, "#sort=function-asc")
    want = {(os.path.basename(o), f): n for (o, f), n in
            text_funcs(text).items()}
    got = dom_funcs(d)
    ok(got == want, f"saved: the DOM's function table holds the text "
       f"report's samples ({len(want)} functions)"
       + ("" if got == want else f": text {brief(want)}, DOM {brief(got)}"))
    names = [r[d.heads[0].index("function")] for r in d.rows]
    ok(names == sorted(names, key=str.casefold) and
       d.attrs.get("data-sort-key") == "function",
       f"saved: #sort=function-asc sorted the table in Chromium: {names}")
    m = re.search(r"^# (?:user samples +)?(\d+)", text, re.M)
    ok(d.ids.get("samples") == m.group(1) and
       d.ids.get("rate") == "1000 Hz" and d.ids.get("cpu") == "0.041 s",
       f"saved: summary: {d.ids.get('samples')} samples, "
       f"{d.ids.get('rate')}, CPU {d.ids.get('cpu')}")
    files = {k: v.split(":")[0] for k, v in d.ids.items()
             if re.match(r"^F\d+$", k)}
    src = {(files[f], ln): n for (f, ln), n in d.src.items()}
    want_l = text_lines(lines)
    ok(want_l and src == want_l, f"saved: source lines annotated with "
       f"--lines's counts ({len(want_l)} lines)"
       + ("" if src == want_l else f": text {brief(want_l)}, DOM "
          f"{brief(src)}"))
    ok(d.bars and d.bars[0].startswith("so_work: 15 samples"),
       f"saved: the chart's bars, top first: {d.bars}")
    png = os.path.join(DIR, "saved.png")
    if os.path.exists(png):
        os.unlink(png)
    chromium("--screenshot=" + png, "--window-size=1200,1600",
             "--hide-scrollbars", "file://" + page)
    with open(png, "rb") as f:
        ok(f.read(8) == b"\x89PNG\r\n\x1a\n",
           f"saved: screenshot {png} ({os.path.getsize(png)} bytes)")


def check_gmon():
    run(PG, "2000000", cwd=DIR)
    gmon = os.path.join(DIR, "gmon.out")
    page = os.path.join(DIR, "gmon.html")
    text = run(CTL, "report", PG, gmon)
    run(CTL, "report", "--format=html", "-o", page, PG, gmon)
    d = dom_of(page)
    base = os.path.basename(PG)
    want = {(base, f): n for (_, f), n in text_funcs(text).items()}
    want_c = {(base, f): n for (_, f), n in
              text_funcs(text, calls=True).items()}
    got = {k: v for k, v in dom_funcs(d).items() if v}
    got_c = {k: int(v) for k, v in dom_funcs(d, "calls").items() if v}
    ok(got == want and got_c == want_c, f"gmon: samples and calls per "
       f"function as the text report ({want_c})"
       + ("" if got == want and got_c == want_c else
          f": text {want} {want_c}, DOM {got} {got_c}"))


def check_stripped():
    """A stripped program: its functions named after their FDE ranges."""
    saved = os.path.join(DIR, "stripped.profile")
    page = os.path.join(DIR, "stripped.html")
    names = write_stripped(saved)
    text = run(CTL, "report", "-v", saved)
    run(CTL, "report", "--format=html", "-o", page, saved)
    d = dom_of(page)
    want = {(os.path.basename(o), f): n for (o, f), n in
            text_funcs(text).items()}
    got = dom_funcs(d)
    fde = {f: n for (_, f), n in got.items() if f in names}
    hint = re.search(r"^# hint: (.*)$", text, re.M)
    dom = chromium("--dump-dom", "file://" + page)
    ok(hint and html.unescape(re.sub(r"<[^>]*>", "", dom)).count(
        hint.group(1)) == 1 and "rebuild it with -g" in hint.group(1),
       f"stripped: the objects table holds the text's hint once: "
       f"{hint and hint.group(1)}")
    ok(got == want and fde == names, f"stripped: the DOM's function table "
       f"names the FDE ranges as the text report ({names})"
       + ("" if got == want and fde == names else
          f": text {brief(want)}, DOM {brief(got)}"))


def long_source(name, lines):
    """A C program of @lines lines whose function hot() is near the end:
    its path and hot()'s source lines."""
    src = os.path.join(DIR, name + ".c")
    body = ["int pad%d(int x) { return x + %d; }" % (i, i)
            for i in range(lines - 8)]
    body += ["int hot(int n)", "{", "\tint i, s = 0;", "",
             "\tfor (i = 0; i < n; i++)", "\t\ts += i * i;",
             "\treturn s;", "}", "int main(void) { return hot(3) != 5; }"]
    with open(src, "w") as f:
        f.write("\n".join(body) + "\n")
    run("cc", "-O0", "-g", "-no-pie", "-o", os.path.join(DIR, name), src)
    return src


def check_sources():
    """A source longer than the page shows, and one that is gone."""
    progs = []
    for name in ("long_src", "gone_src"):
        long_source(name, 3000)
        progs.append(os.path.join(DIR, name))
    os.unlink(os.path.join(DIR, "gone_src.c"))
    saved = os.path.join(DIR, "sources.profile")
    page = os.path.join(DIR, "sources.html")
    rows = ["profil-ctl-profile 1", "rate 1000", "bin-bytes 4",
            "acct - - - - - - - -", "objects 2"]
    rows += [f'object {i} - "{p}"' for i, p in enumerate(progs)]
    rows += ["processes 0", "counts 2"]
    for i, p in enumerate(progs):
        lo, hi, n = text_range(p)
        bins = func_bins(p, "hot", lo, [9, 1, 4, 2, 7, 3])
        rows += [f"count * {i} 0 1",
                 f"range {lo:#x} {hi:#x} {n} {len(bins)}"]
        rows += [f"bin {k} {c}" for k, c in bins]
    with open(saved, "w") as f:
        f.write("\n".join(rows + ["end"]) + "\n")
    lines = text_lines(run(CTL, "report", "--lines", saved))
    run(CTL, "report", "--format=html", "-o", page, saved)
    d = dom_of(page)
    files = {v.split(":")[0]: k for k, v in d.ids.items()
             if re.match(r"^F\d+$", k)}
    want = {(files[f], ln): n for (f, ln), n in lines.items()}
    ok(want and d.src == want, f"sources: every line with samples "
       f"annotated ({len(want)} lines), the gone file's too"
       + ("" if d.src == want else f": text {brief(want)}, DOM "
          f"{brief(d.src)}"))
    text = open(page).read()
    k = files[os.path.join(DIR, "long_src.c")]
    shown = sorted(int(i.split("-L")[1]) for i in d.ids
                   if i.startswith(k + "-L"))
    hot = [ln for (f, ln) in want if f == k]
    ok(len(shown) < 3000 and min(hot) - 5 <= shown[0] and
       "lines shown: those within 5" in text,
       f"sources: a 3000-line file shows {len(shown)} lines, from "
       f"{shown[0]}, around its lines with samples ({min(hot)}..)")
    ok("source not readable: No such file or directory" in text,
       "sources: a source that is gone gets a note")


def check_large():
    libc = re.search(r"\s(/\S*/libc\.so\.6)\s", run("ldd", CTL)).group(1)
    large = os.path.join(DIR, "large.profile")
    page = os.path.join(DIR, "large.html")
    write_large(large, [CTL, libc])
    t = time.monotonic()
    run(CTL, "report", "--format=html", "-o", page, large)
    t_html = time.monotonic() - t
    size = os.path.getsize(page)
    ok(size <= MAX_BYTES, f"large: {size} bytes, bound {MAX_BYTES}, "
       f"written in {t_html:.1f} s")
    t = time.monotonic()
    d = dom_of(page)
    t_dom = time.monotonic() - t
    total = sum(float(r[0]) for r in d.rows)
    ok(len(d.rows) == 1000 and "1000 of" in open(page).read(),
       f"large: Chromium dumped the DOM in {t_dom:.1f} s (timeout "
       f"{CHROMIUM_TIMEOUT} s): 1000 function rows, the cut said "
       f"({total} samples in them)")


def main():
    skip_unless("chromium")
    os.makedirs(DIR, exist_ok=True)
    check_small()
    check_gmon()
    check_stripped()
    check_sources()
    check_large()
    done()


if __name__ == "__main__":
    main()
