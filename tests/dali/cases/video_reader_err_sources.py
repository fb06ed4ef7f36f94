# experimental.readers.video refuses a call without filenames, file_root or file_list.
# oracle: iterations=1
# oracle: error=Only one of the following arguments can be provided
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.experimental.readers.video(sequence_length=2)


pipe = oracle_pipe()
