# decoders.video refuses an end_frame not past start_frame.
# oracle: iterations=1
# oracle: error=must be greater than start_frame
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    return fn.decoders.video(data, start_frame=5, end_frame=5)


pipe = oracle_pipe()
