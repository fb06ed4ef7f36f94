# experimental.readers.video refuses a file_list range that is empty: DALI skips it with a
# warning, dalic names it.
# oracle: iterations=1
# oracle: dali_error=The number of input samples: 0
# oracle: dalic_error=Empty frame range [3, 0) for file build/release/clips/vp9.webm
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return tuple(fn.experimental.readers.video(
        file_list=CLIPS + "list_empty.txt", file_list_format="frames", sequence_length=1))


pipe = oracle_pipe()
