# experimental.readers.video uniform_sample: one sample per video, sequence_length frames
# spread over it (repeated frames when the video is shorter), frame numbers per frame.
# oracle: atol=1
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=2)
def oracle_pipe():
    v, n = fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"], sequence_length=16,
        uniform_sample=True, enable_frame_num="sequence")
    return v, n


pipe = oracle_pipe()
