# The pipeline of the golden checkpoints (make_golden.py runs it under DALI 2.4; the dalic tests
# load this same file): a shuffling readers.file over samples/images plus three random
# operators, batch 5 (12 files: batches straddle the epoch ends), seed 1234.
import os
from nvidia.dali import pipeline_def, fn

IMAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "samples", "images")


@pipeline_def(batch_size=5, num_threads=1, device_id=None, seed=1234)
def ckpt_pipe():
    jpegs, labels = fn.readers.file(file_root=IMAGES, random_shuffle=True, name="Reader")
    flip = fn.random.coin_flip(probability=0.5)
    u = fn.random.uniform(range=[0.0, 1.0])
    n = fn.random.normal(shape=[2], seed=7)
    return labels, flip, u, n


pipe = ckpt_pipe(enable_checkpointing=True)
