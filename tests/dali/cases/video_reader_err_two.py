# experimental.readers.video refuses filenames and file_root together.
# oracle: iterations=1
# oracle: error=Only one of the following arguments can be provided
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return tuple(fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], file_root=CLIPS + "tree", sequence_length=2))


pipe = oracle_pipe()
