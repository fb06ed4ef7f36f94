# experimental.readers.video refuses two fill values for three channels (at the first batch).
# oracle: iterations=1
# oracle: error=Fill value size must be 1 or equal to the number of channels. Got 2 with num_channels=3
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], sequence_length=5, step=10, pad_mode="constant",
        fill_value=[1, 2])


pipe = oracle_pipe()
