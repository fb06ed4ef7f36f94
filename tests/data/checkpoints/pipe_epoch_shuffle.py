# A reader that reshuffles every epoch (shuffle_after_epoch): with enable_checkpointing DALI
# shuffles the original list each epoch instead of the previous epoch's order. Batch 5 over the
# 12 files of samples/images, labels only (make_golden.py).
import os
from nvidia.dali import pipeline_def, fn

IMAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "samples", "images")


@pipeline_def(batch_size=5, num_threads=1, device_id=None, seed=99)
def epoch_pipe():
    jpegs, labels = fn.readers.file(file_root=IMAGES, shuffle_after_epoch=True, name="Reader")
    return labels


pipe = epoch_pipe(enable_checkpointing=True)
