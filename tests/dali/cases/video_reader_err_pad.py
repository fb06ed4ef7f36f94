# experimental.readers.video refuses an unknown pad_mode.
# oracle: iterations=1
# oracle: error=Invalid pad_mode: wrap
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], sequence_length=2, pad_mode="wrap")


pipe = oracle_pipe()
