# decoders.video refuses frames together with a range argument.
# oracle: iterations=1
# oracle: error=Cannot specify both `frames`
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    return fn.decoders.video(data, frames=[1, 2], stride=2)


pipe = oracle_pipe()
