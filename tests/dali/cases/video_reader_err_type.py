# experimental.readers.video refuses image types other than RGB and YCbCr.
# oracle: iterations=1
# oracle: error=Invalid image type
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm"], sequence_length=2, image_type=types.GRAY)


pipe = oracle_pipe()
