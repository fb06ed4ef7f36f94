# decoders.video on the CPU: readers.file's bytes of VP9 and MJPEG clips decoded with
# start_frame / stride / sequence_length past the end of the clip (constant padding with a
# per-channel fill_value). Frames within 1 level (DALI's swscale is FFmpeg 8's, video_yuv.h).
# oracle: atol=1
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    return fn.decoders.video(data, start_frame=5, stride=3, sequence_length=6,
                             fill_value=[10, 20, 30])


pipe = oracle_pipe()
