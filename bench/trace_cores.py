#!/usr/bin/env python3
"""Core utilisation per operator from a dalic Chrome trace (DALIC_TRACERS=trace, issue 21).

For each operator run (an "operator" event on a stage thread) it sums the per-sample work
("samples" events of that operator and iteration, on the worker indices) and divides by
workers x the run's wall time: 100% means every worker computed for the whole run. "tail" is
the mean time, per run, from the moment the first worker ran out of samples to the run's end:
a core idle at the end of the batch.
    python3 bench/trace_cores.py TRACE.json [WORKERS]   (default: the worker indices seen)
"""
import json
import sys
from collections import defaultdict


def main():
    events = json.load(open(sys.argv[1]))
    events = events["traceEvents"] if isinstance(events, dict) else events
    runs = {}
    work = defaultdict(list)
    tids = set()
    for e in events:
        if e.get("ph") != "X":
            continue
        a = e.get("args", {})
        key = (e["name"], a.get("iteration"))
        if e.get("cat") == "operator":
            runs[key] = (e["ts"], e["ts"] + e["dur"])
        elif e.get("cat") == "samples":
            work[key].append((e["tid"], e["ts"], e["ts"] + e["dur"], a.get("cpu_us", 0)))
            tids.add(e["tid"])
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else max(len(tids), 1)
    per_op = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0])  # wall, busy, cpu, tail, runs
    for key, (t0, t1) in runs.items():
        chunks = work.get(key)
        if not chunks:
            continue
        last = defaultdict(float)
        for tid, s0, s1, cpu in chunks:
            last[tid] = max(last[tid], s1)
        o = per_op[key[0]]
        o[0] += t1 - t0
        o[1] += sum(s1 - s0 for _, s0, s1, _ in chunks)
        o[2] += sum(c for *_, c in chunks)
        first_done = min(last.values()) if len(last) >= workers else t0
        o[3] += t1 - first_done
        o[4] += 1
    print("%-28s %6s %10s %8s %8s %12s" % ("operator", "runs", "wall ms", "busy %", "cpu %",
                                           "tail ms/run"))
    for name, (wall, busy, cpu, tail, n) in sorted(per_op.items(), key=lambda kv: -kv[1][0]):
        print("%-28s %6d %10.1f %8.1f %8.1f %12.3f" % (
            name[:28], n, wall / 1e3, 100 * busy / (workers * wall), 100 * cpu / (workers * wall),
            tail / n / 1e3))


if __name__ == "__main__":
    main()
