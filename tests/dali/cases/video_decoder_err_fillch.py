# decoders.video refuses a fill_value of two values.
# oracle: iterations=1
# oracle: error=Fill value size must be 1 or equal to the number of channels
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    return fn.decoders.video(data, sequence_length=30, fill_value=[1, 2])


pipe = oracle_pipe()
