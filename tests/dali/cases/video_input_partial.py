# experimental.inputs.video: each fed video (tree/a: a 10-frame MJPEG, then an 18-frame VP9,
# then the MJPEG again) streams out over several iterations as batches of 4-frame
# sequences; a video's last batch is partial and its last sequence shorter
# ('partial'): [4, 4, 2], then [4, 4, 4] and [4, 2], then [4, 4, 2].
# Frames within 1 level (DALI's swscale is FFmpeg 8's, video_yuv.h).
# oracle: atol=1
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
# (no memory check: DALI 2.4's legacy per-sample figure with a batch size that changes
# between iterations is not reproduced, see docs/dali-differences.md)
# oracle: feed=vin=build/release/clips/tree/a
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=3, num_threads=2, device_id=None)
def oracle_pipe():
    return fn.experimental.inputs.video(name="vin", sequence_length=4)


pipe = oracle_pipe()
