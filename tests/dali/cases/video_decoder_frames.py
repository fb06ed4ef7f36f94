# decoders.video: an explicit frame list (out of order, repeated, past the end reflected with
# pad_mode reflect_101), and every frame of a clip with the default arguments, side by side.
# oracle: atol=1
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "mjpeg.avi", CLIPS + "tree/b/vp9_c.webm"])
    picked = fn.decoders.video(data, frames=[7, 2, 2, 13, 0], pad_mode="reflect_101")
    every = fn.decoders.video(data)
    return picked, every


pipe = oracle_pipe()
