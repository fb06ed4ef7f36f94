# Not a valid pipeline script (a call is never closed): the TUI must come up and show where.
from nvidia.dali import pipeline_def
import nvidia.dali.fn as fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def broken():
    jpegs, labels = fn.readers.file(file_root="samples/images"
    return jpegs, labels


pipe = broken()
