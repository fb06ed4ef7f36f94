# experimental.readers.video on the CPU: VP9 and MJPEG clips (made by `make` in
# build/release/clips; DALI's wheel has no H.264 decoder on the CPU), sequences with stride
# and step across two files, labels, per-frame numbers and timestamps. Frames within 1 level:
# DALI converts YUV with the swscale of FFmpeg 8 (video_yuv.h); `stats` is left out (the
# MakeContiguous names differ for every case, an engine matter).
# oracle: atol=1
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    video, label, frame_num, ts = fn.experimental.readers.video(
        filenames=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"], labels=[4, 9],
        sequence_length=4, stride=2, step=3, enable_frame_num="sequence",
        enable_timestamps=True)
    return video, label, frame_num, ts


pipe = oracle_pipe()
