# experimental.readers.video refuses a file_root that does not exist.
# oracle: iterations=1
# oracle: error=Directory build/release/clips/nothere could not be opened
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return tuple(fn.experimental.readers.video(
        file_root=CLIPS + "nothere", sequence_length=2))


pipe = oracle_pipe()
