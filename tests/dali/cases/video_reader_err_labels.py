# experimental.readers.video refuses more labels than files.
# oracle: iterations=1
# oracle: error=Number of provided files and labels should match. Provided 1 files and 2 labels.
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return tuple(fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], labels=[1, 2], sequence_length=2))


pipe = oracle_pipe()
