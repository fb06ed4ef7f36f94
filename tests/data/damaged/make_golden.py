#!/usr/bin/env python3
"""Records what real NVIDIA DALI 2.4 (CPU) does with every file of the damaged-image set.

    /work/venv-dali/bin/python tests/data/damaged/make_golden.py     (from the repository root)

Builds tests/data/damaged/make_set.c with tests/testlib/damage.c (the set the unit tests make),
writes the set into a temporary folder, and decodes each file alone (batch 1) with
decoders.image in every output type and with decoders.image_random_crop (RGB, seed 7). It
writes dali.golden here, one line per (file, decoder, output type):

    <file> <fnv64 of the file> <decoder> <output type> OK <H>x<W>x<C> <fnv64 of the pixels>
    <file> <fnv64 of the file> <decoder> <output type> ERR <DALI's message, one line>
    <file> <fnv64 of the file> <decoder> <output type> CRASH

CRASH: DALI killed the process (2.4 writes past its buffer decoding a grayscale JPEG to
ANY_DATA). Every decode runs in a worker process; after a crash a new worker goes on with the
next one.

tests/unit/test_img_damaged.c makes the same set, checks the file checksums (the set is the
one recorded) and then that dalic decodes what DALI decodes into the same pixels, and refuses
what DALI refuses.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TYPES = ["RGB", "BGR", "GRAY", "YCbCr", "ANY_DATA"]
SEED = 7


def golden_fnv(data):
    h = 1469598103934665603
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def golden_fnv_array(arr):
    # FNV-1a over the bytes, vectorised in chunks would change the value; bytes are few enough
    return golden_fnv(np.ascontiguousarray(arr).tobytes())


def golden_make_set(work):
    exe = os.path.join(work, "make_set")
    cflags = subprocess.run(["pkg-config", "--cflags", "--libs", "libpng", "libjpeg"],
                            capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-std=gnu11", "-O1", "-D_GNU_SOURCE", "-I" + ROOT,
                    os.path.join(HERE, "make_set.c"), os.path.join(ROOT, "tests/testlib/damage.c"),
                    "-o", exe] + cflags, check=True)
    out = os.path.join(work, "set")
    os.mkdir(out)
    subprocess.run([exe, os.path.join(ROOT, "samples/images"), out], check=True)
    return out


def golden_decode(path, decoder, output_type):
    from nvidia.dali import fn, pipeline_def, types

    @pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=SEED)
    def golden_pipe():
        data, _ = fn.readers.file(files=[path])
        dec = getattr(fn.decoders, decoder)
        return dec(data, output_type=getattr(types, output_type))

    pipe = golden_pipe()
    try:
        pipe.build()
        return np.array(pipe.run()[0][0]), None
    except Exception as e:  # noqa: BLE001 - the message is the result
        msg = " ".join(str(e).split())
        return None, msg.split("encountered:")[-1].split("Current pipeline")[0].strip()


def golden_jobs(folder):
    jobs = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            fhash = golden_fnv(f.read())
        for decoder, t in [("image", t) for t in TYPES] + [("image_random_crop", "RGB")]:
            jobs.append((name, fhash, decoder, t))
    return jobs


def golden_worker(folder, start):
    """Decodes jobs[start:] and prints one golden line each."""
    for name, fhash, decoder, t in golden_jobs(folder)[start:]:
        path = os.path.join(folder, name)
        arr, err = golden_decode(path, decoder, t)
        head = "%s %016x %s %s" % (name, fhash, decoder, t)
        if err is not None:
            print("%s ERR %s" % (head, err.replace(path, name)), flush=True)
        else:
            shape = "x".join(str(d) for d in arr.shape)
            print("%s OK %s %016x" % (head, shape, golden_fnv_array(arr)), flush=True)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        return golden_worker(sys.argv[2], int(sys.argv[3]))
    with tempfile.TemporaryDirectory() as work:
        folder = golden_make_set(work)
        jobs = golden_jobs(folder)
        lines = []
        while len(lines) < len(jobs):
            r = subprocess.run([sys.executable, __file__, "--worker", folder, str(len(lines))],
                               capture_output=True, text=True)
            got = [l for l in r.stdout.splitlines() if l.strip()]
            lines += got
            if r.returncode != 0 and len(lines) < len(jobs):
                name, fhash, decoder, t = jobs[len(lines)]
                lines.append("%s %016x %s %s CRASH" % (name, fhash, decoder, t))
            print("%d/%d" % (len(lines), len(jobs)), flush=True)
    with open(os.path.join(HERE, "dali.golden"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
