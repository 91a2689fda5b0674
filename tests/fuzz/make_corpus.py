#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Writes the seed corpus gmon_corpus/: well-formed files in both byte
# orders and pointer widths, and the malformed cases of
# tests/unit/test_cli_gmon.c. Run from tests/fuzz/; the output is
# committed (crash-* files found by fuzzing are added by hand).
import os
import struct

OUT = "gmon_corpus"


def header(be=False, version=1, magic=b"gmon"):
    return magic + struct.pack(">i" if be else "<i", version) + bytes(12)


def hist(low, high, bins, rate=100, be=False, ptr=8, dimen=b"seconds",
         nbins=None):
    e = ">" if be else "<"
    p = "Q" if ptr == 8 else "I"
    n = len(bins) if nbins is None else nbins
    rec = bytes([0]) + struct.pack(e + p + p + "II", low, high, n, rate)
    rec += dimen.ljust(15, b"\0") + dimen[:1]
    return rec + b"".join(struct.pack(e + "H", b & 0xFFFF) for b in bins)


def arc(frm, self, count, be=False, ptr=8):
    e = ">" if be else "<"
    p = "Q" if ptr == 8 else "I"
    return bytes([1]) + struct.pack(e + p + p + "I", frm, self, count)


def bb(blocks, ptr=8):
    p = "Q" if ptr == 8 else "I"
    out = bytes([2]) + struct.pack("<I", len(blocks))
    for a, c in blocks:
        out += struct.pack("<" + p + p, a, c)
    return out


SEEDS = {
    # well-formed
    "ok-le64": header() + hist(0x1000, 0x1010, [1, 2, 3, 4]),
    "ok-be64": header(True) + hist(0x1000, 0x1010, [1, 2, 3, 4], be=True),
    "ok-le32": header() + hist(0x1000, 0x1010, [1, 0, 0, 9], ptr=4)
    + arc(0x1004, 0x1008, 3, ptr=4),
    "ok-header-only": header(),
    "ok-sum-sort": header() + hist(0x2000, 0x2008, [10, 11])
    + hist(0x1000, 0x1008, [1, 2]) + hist(0x2000, 0x2008, [65534, 65535]),
    "ok-arcs-bb": header() + hist(0x400000, 0x400040, [0] * 15 + [7])
    + arc(0x400010, 0x400020, 5) + bb([(0x400000, 5), (0x400004, 6)]),
    "ok-odd-scale": header() + hist(0x0, 0x1328, [1] * 1228),
    # malformed (test_cli_gmon.c)
    "bad-empty": b"",
    "bad-short": header()[:19],
    "bad-magic": b"Gmon" + header()[4:],
    "bad-version": header(version=2),
    "bad-tag": header() + hist(0x1000, 0x1004, [1]) + bytes([7]),
    "bad-hist-header": header() + hist(0x1000, 0x1008, [])[:38],
    "bad-bins": header() + hist(0x1000, 0x1010, [1], nbins=4),
    "bad-huge-hist-size": header() + hist(0, 2**64 - 1, [], nbins=2**32 - 1),
    "bad-empty-range": header() + hist(0x2000, 0x1000, [1]),
    "bad-no-bins": header() + hist(0x1000, 0x1008, []),
    "bad-more-bins": header() + hist(0x1000, 0x1002, [1, 2, 3]),
    "bad-overlap": header() + hist(0x1000, 0x1010, [1] * 4)
    + hist(0x1008, 0x1018, [1] * 4),
    "bad-scale": header() + hist(0x1000, 0x1010, [1] * 4)
    + hist(0x2000, 0x2010, [1] * 2),
    "bad-rate": header() + hist(0x1000, 0x1010, [1] * 4)
    + hist(0x1000, 0x1010, [1] * 4, rate=200),
    "bad-dimension": header() + hist(0x1000, 0x1010, [1] * 4)
    + hist(0x2000, 0x2010, [0] * 4, dimen=b"cycles"),
    "bad-arc": header() + arc(1, 2, 3)[:-1],
    "bad-bb-count": header() + bytes([2, 0, 0]),
    "bad-bb-blocks": header() + bytes([2]) + struct.pack("<I", 1000000)
    + bytes(16),
}

os.makedirs(OUT, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
