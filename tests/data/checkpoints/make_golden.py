# Writes the golden checkpoints of tests/data/checkpoints with real DALI 2.4 (CPU):
#   /work/venv-dali/bin/python tests/data/checkpoints/make_golden.py
# rng_reader_iterN.ckpt: pipe_rng_reader.py's pipeline after N consumed outputs;
# rng_reader_iterN.next.txt: the 2 batches DALI produces next (one line per output, values).
# rng_reader_iter3_iterator.ckpt: the same at N = 3 with a framework iterator's JSON, as
# DALIGenericIterator.checkpoints() stores it.
# epoch_shuffle_iter7.ckpt / .next.txt: the same for pipe_epoch_shuffle.py (shuffle_after_epoch).
# old_format.ckpt is synthetic (no old DALI here): the layout of DALI before 1.30, whose field 2
# was PipelineCheckpoint{int64 epoch_idx = 1; int64 iteration = 2}.
import os
import runpy
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def golden_make(script="pipe_rng_reader.py", fn="ckpt_pipe"):
    return runpy.run_path(os.path.join(HERE, script))[fn](enable_checkpointing=True)


def golden_values(outs):
    lines = []
    for o in outs:
        vals = []
        for i in range(len(o)):
            a = np.array(o[i]).ravel()
            vals.append(" ".join(repr(float(x)) if a.dtype.kind == "f" else str(int(x)) for x in a))
        lines.append(" | ".join(vals))
    return lines


def golden_write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


for n in (0, 3, 7):
    p = golden_make()
    p.build()
    for _ in range(n):
        p.run()
    golden_write(f"rng_reader_iter{n}.ckpt", p.checkpoint())
    nxt = []
    for _ in range(2):
        nxt += golden_values(p.run())
    golden_write(f"rng_reader_iter{n}.next.txt", ("\n".join(nxt) + "\n").encode())

p = golden_make("pipe_epoch_shuffle.py", "epoch_pipe")
p.build()
for _ in range(7):
    p.run()
golden_write("epoch_shuffle_iter7.ckpt", p.checkpoint())
nxt = []
for _ in range(3):
    nxt += golden_values(p.run())
golden_write("epoch_shuffle_iter7.next.txt", ("\n".join(nxt) + "\n").encode())

p = golden_make()
p.build()
for _ in range(3):
    p.run()
it = '{"_counter": 15, "_counter_per_gpu": [0], "_shard_sizes_per_gpu": [12], "_shards_id": [0], "_size": 12}'
golden_write("rng_reader_iter3_iterator.ckpt", p._get_checkpoint(iterator_data=it))

# old layout: one OpCheckpoint, then field 2 = {1: epoch_idx 0, 2: iteration 3} as varints
golden_write("old_format.ckpt", bytes([0x0a, 0x0a, 0x0a, 0x06]) + b"Reader" + bytes([0x12, 0x00]) +
             bytes([0x12, 0x04, 0x08, 0x00, 0x10, 0x03]))
