# decoders.video refuses a start_frame past the clip.
# oracle: iterations=1
# oracle: error=Start frame 30 is out of bounds
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    return fn.decoders.video(data, start_frame=30, sequence_length=2)


pipe = oracle_pipe()
