#!/usr/bin/env python3
"""Records the golden values of tests/unit/test_rng_golden.c from real NVIDIA DALI (CPU).

    /work/venv-dali/bin/python tests/data/rng/make_golden.py     (from the repository root)

For every pipeline script NAME.py here it writes NAME.golden: the script's pipeline run under
DALI for ITERATIONS iterations, one line per (iteration, output, sample):

    i<iteration> o<output> s<sample> <numpy dtype> [<extents>] <values>

Values are exact: floats as the hex of their bits (0x%08x float32, 0x%016x float64), integers
in decimal; a sample of more than 64 elements is written as "-" (its shape is still checked).
A script that sets GOLDEN_PB = True also gets NAME.pb, DALI's serialized pipeline, which the
test runs instead of the script. The external source `data` of variable_batch.py gets the batches its source function makes;
the test feeds the same ones.

crop_windows.golden holds windows of DALI's RandomCropGenerator (fn.random_crop_generator,
the generator of decoders.image_random_crop and random_resized_crop), one line per window:

    crop key=<seed> ctr_hi=<sample's sequence> area=<lo> <hi> ratio=<lo> <hi> attempts=<n>
         image=<H>x<W> -> <anchor y> <anchor x> <h> <w>
"""
import glob
import os
import runpy
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ITERATIONS = 3
MAX_VALUES = 64


def golden_find_pipeline(globs):
    from nvidia.dali.pipeline import Pipeline
    pipes = [v for k, v in globs.items() if isinstance(v, Pipeline)]
    assert len(pipes) == 1, "one pipeline per script"
    return pipes[0]


def golden_value(arr):
    if arr.dtype == np.float32:
        return ["0x%08x" % v for v in arr.ravel().view(np.uint32)]
    if arr.dtype == np.float64:
        return ["0x%016x" % v for v in arr.ravel().view(np.uint64)]
    return ["%d" % v for v in arr.ravel().astype(np.int64 if arr.dtype != np.uint64 else np.uint64)]


def golden_line(it, o, s, arr):
    shape = "[" + ",".join(str(d) for d in arr.shape) + "]"
    vals = golden_value(arr) if arr.size <= MAX_VALUES else ["-"]
    return " ".join(["i%d o%d s%d %s %s" % (it, o, s, arr.dtype.name, shape)] + vals)


def golden_pipeline(script):
    globs = runpy.run_path(script, run_name="__golden__")
    pipe = golden_find_pipeline(globs)
    pipe.build()
    if globs.get("GOLDEN_PB"):  # the test runs DALI's serialized pipeline
        with open(os.path.splitext(script)[0] + ".pb", "wb") as f:
            f.write(pipe.serialize())
    lines = []
    for it in range(ITERATIONS):
        outs = pipe.run()
        for o, tl in enumerate(outs):
            for s in range(len(tl)):
                lines.append(golden_line(it, o, s, np.array(tl[s])))
    return lines


CROP_CASES = [
    # seed, area, ratio, num_attempts, image shapes (the batch)
    (1234, (0.08, 1.0), (3 / 4, 4 / 3), 10, [(480, 640), (640, 480), (300, 300), (17, 23)]),
    (99, (0.5, 0.6), (2.0, 3.0), 10, [(100, 100), (40, 200), (200, 40), (1, 1)]),
    (7, (0.1, 0.9), (0.2, 5.0), 1, [(100, 3), (3, 100), (1000, 1500), (2, 2)]),
    (3000000000, (0.08, 1.0), (3 / 4, 4 / 3), 0, [(480, 640), (33, 77), (77, 33), (5, 500)]),
    (42, (0.01, 0.02), (0.9, 1.1), 3, [(4000, 6000), (8, 8), (1, 50), (50, 1)]),
]


def golden_crop_windows():
    from nvidia.dali import pipeline_def, fn, types
    lines = []
    for seed, area, ratio, attempts, shapes in CROP_CASES:
        batch = len(shapes)

        @pipeline_def(batch_size=batch, num_threads=1, device_id=None, seed=1)
        def crop_pipe():
            sh = fn.external_source(
                source=lambda: [np.array(s, dtype=np.int32) for s in shapes], batch=True)
            anchor, extent = fn.random_crop_generator(sh, random_area=list(area),
                                                      random_aspect_ratio=list(ratio),
                                                      num_attempts=attempts, seed=seed)
            return anchor, extent

        pipe = crop_pipe()
        pipe.build()
        for it in range(2):
            anchors, extents = pipe.run()
            for s in range(batch):
                y, x = np.array(anchors[s]).tolist()
                h, w = np.array(extents[s]).tolist()
                lines.append(
                    "crop key=%d ctr_hi=%d area=%.9g %.9g ratio=%.9g %.9g attempts=%d "
                    "image=%dx%d -> %d %d %d %d" %
                    (seed, it * batch + s * 65537, np.float32(area[0]), np.float32(area[1]),
                     np.float32(ratio[0]), np.float32(ratio[1]), attempts, shapes[s][0],
                     shapes[s][1], y, x, h, w))
    return lines


def golden_write(name, lines):
    import nvidia.dali as dali
    with open(os.path.join(HERE, name + ".golden"), "w") as f:
        f.write("# %s.golden: made by tests/data/rng/make_golden.py with nvidia-dali %s (CPU)\n"
                % (name, dali.__version__))
        for line in lines:
            f.write(line + "\n")


def main():
    os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
    for script in sorted(glob.glob(os.path.join(HERE, "*.py"))):
        name = os.path.splitext(os.path.basename(script))[0]
        if name == "make_golden":
            continue
        golden_write(name, golden_pipeline(script))
    golden_write("crop_windows", golden_crop_windows())
    return 0


if __name__ == "__main__":
    sys.exit(main())
