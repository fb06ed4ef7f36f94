# experimental.readers.video refuses more shards than sequences.
# oracle: iterations=1
# oracle: error=The number of input samples: 1, needs to be at least equal to the requested number of shards: 3.
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], sequence_length=20, num_shards=3)


pipe = oracle_pipe()
