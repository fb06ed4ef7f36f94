# experimental.readers.video refuses a fill_value past 255.
# oracle: iterations=1
# oracle: error=fill_value must be in range [0, 255]
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], sequence_length=2, fill_value=[300])


pipe = oracle_pipe()
