#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""insns_report.py DIR [ROWS]: what make bench-insns counted.

DIR holds the plugin's dumps (insns.0: the unprofiled run, insns.1: the
profiled one), the guest's kallsyms and "RATE SAMPLES". Prints, per
kernel symbol (module symbols with their module), the instructions the
profiled run executed beyond the unprofiled one, largest first; then
profil.ko's own instructions, and those with the kernel functions the
sampling calls (the list below), in all and per sample.

Only the module's own counts are exact: any other function's difference
also holds the runs' other differences (the slab allocator's slow paths,
the scheduler's), which move by 10^5 instructions from run to run.
"""
import bisect
import collections
import sys

# Kernel functions that a machine-wide sample on 6.1 runs: the
# tracepoint's call, its task_work and the mapping's look-up.
SAMPLING_PATHS = {
    "update_curr", "task_work_add", "kick_process", "task_work_run",
    "_raw_spin_lock_irq", "_raw_spin_unlock_irq", "__cond_resched",
    "down_read_trylock", "up_read", "mtree_load", "__rcu_read_lock",
    "__rcu_read_unlock", "exit_to_user_mode_prepare",
}


def symbols(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 3 or p[1] not in "tTwW" or p[0] == "0" * len(p[0]):
                continue
            name = p[2] + (" " + p[3] if len(p) > 3 else "")
            syms.append((int(p[0], 16), name))
    syms.sort()
    return syms


def counts(path, syms, addrs):
    c = collections.Counter()
    with open(path) as f:
        for line in f:
            addr, insns, runs = line.split()
            addr = int(addr, 16)
            if addr < 1 << 47:
                name = "[user]"
            else:
                i = bisect.bisect_right(addrs, addr) - 1
                name = syms[i][1] if i >= 0 else "[unknown]"
            c[name] += int(insns) * int(runs)
    return c


def main():
    d = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    syms = symbols(f"{d}/kallsyms")
    addrs = [a for a, _ in syms]
    base = counts(f"{d}/insns.0", syms, addrs)
    prof = counts(f"{d}/insns.1", syms, addrs)
    with open(f"{d}/samples") as f:
        rate, samples = (int(x) for x in f.read().split())
    diff = {s: prof[s] - base[s] for s in set(base) | set(prof)}
    print(f"# {rate} Hz, {samples} samples; instructions, profiled less "
          f"unprofiled: {sum(prof.values()) - sum(base.values())}")
    print("#   added   unprofiled     profiled  function")
    for s, v in sorted(diff.items(), key=lambda x: -abs(x[1]))[:rows]:
        print(f"{v:9d} {base[s]:12d} {prof[s]:12d}  {s}")
    own = sum(v for s, v in diff.items() if s.endswith("[profil]"))
    paths = own + sum(diff.get(s, 0) for s in SAMPLING_PATHS)
    per = samples or 1
    print(f"profil.ko's own: {own} instructions, {own / per:.0f} a sample")
    print(f"with the kernel paths it takes: {paths}, {paths / per:.0f} a "
          f"sample")


if __name__ == "__main__":
    main()
