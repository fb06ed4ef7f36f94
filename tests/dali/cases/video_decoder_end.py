# experimental.decoders.video (the deprecated name): end_frame past the clip with pad_mode
# 'none' (the sequence stops at the last frame) and 'edge' (the last frame repeats).
# oracle: atol=1
# oracle: checks=outputs,serialize
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vfr_vp9.webm", CLIPS + "tree/a/mjpeg_b.avi"])
    short = fn.experimental.decoders.video(data, start_frame=4, end_frame=40, stride=5,
                                           pad_mode="none")
    edge = fn.experimental.decoders.video(data, start_frame=6, end_frame=20, stride=4,
                                          pad_mode="edge")
    return short, edge


pipe = oracle_pipe()
