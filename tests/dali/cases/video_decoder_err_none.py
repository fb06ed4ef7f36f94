# decoders.video refuses a frame past the clip with pad_mode 'none'.
# oracle: iterations=1
# oracle: error=Unexpected out-of-bounds frame index 40
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    return fn.decoders.video(data, frames=[1, 40], pad_mode="none")


pipe = oracle_pipe()
