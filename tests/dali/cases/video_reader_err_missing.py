# experimental.readers.video refuses a file that does not exist: DALI skips it with a warning and
# then has no samples; dalic names the file.
# oracle: iterations=1
# oracle: dali_error=The number of input samples: 0
# oracle: dalic_error=cannot open video 'build/release/clips/nothere.webm': No such file or directory
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.experimental.readers.video(
        filenames=[CLIPS + "nothere.webm"], sequence_length=2)


pipe = oracle_pipe()
