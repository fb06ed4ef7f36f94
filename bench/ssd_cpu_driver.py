"""bench/ssd_cpu.sh's driver, run by a Python with nvidia-dali: the SSD pipeline under real
DALI (in this process) and under dalic (`dalic run` subprocesses), rounds alternating.

Steady state only: DALI is timed after build and 3 warm-up iterations; dalic's N iterations
are the difference between `dalic run -n N+3` and `dalic run -n 3` (wall time and the
children's CPU time), so start-up, build and warm-up cancel out. Prints images/s (wall) and
CPU seconds per image of each, and the ratios dalic / DALI.
"""
import resource
import runpy
import subprocess
import sys
import time

PIPE, DALIC, N, ROUNDS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
BATCH = 32


def ssd_dali(pipe, n):
    t, c = time.time(), time.process_time()
    for _ in range(n):
        pipe.run()
    return time.time() - t, time.process_time() - c


def ssd_dalic_once(n):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.time()
    subprocess.run([DALIC, "run", PIPE, "-n", str(n)], check=True, stdout=subprocess.DEVNULL)
    wall = time.time() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def ssd_dalic(n):
    w1, c1 = ssd_dalic_once(n + 3)
    w0, c0 = ssd_dalic_once(3)
    return w1 - w0, c1 - c0


pipe = runpy.run_path(PIPE)["pipe"]
pipe.build()
for _ in range(3):
    pipe.run()
tot = {"dali": [0.0, 0.0], "dalic": [0.0, 0.0]}
for r in range(ROUNDS):
    for name, fn in (("dali", lambda: ssd_dali(pipe, N)), ("dalic", lambda: ssd_dalic(N))):
        w, c = fn()
        tot[name][0] += w
        tot[name][1] += c
        print("round %d %-5s %6.1f images/s  %.4f CPU s/image" % (
            r + 1, name, N * BATCH / w, c / (N * BATCH)), flush=True)
imgs = N * BATCH * ROUNDS
ips = {k: imgs / v[0] for k, v in tot.items()}
cpi = {k: v[1] / imgs for k, v in tot.items()}
print("DALI  %.1f images/s, %.4f CPU s/image" % (ips["dali"], cpi["dali"]))
print("dalic %.1f images/s, %.4f CPU s/image" % (ips["dalic"], cpi["dalic"]))
print("ratio (dalic / DALI): images/s %.2fx, CPU per image %.2fx less" % (
    ips["dalic"] / ips["dali"], cpi["dali"] / cpi["dalic"]))
