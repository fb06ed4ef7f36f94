# experimental.readers.video refuses an unknown enable_frame_num.
# oracle: iterations=1
# oracle: error=Invalid enable_frame_num value: 'first'
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return tuple(fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], sequence_length=2, enable_frame_num="first"))


pipe = oracle_pipe()
