# experimental.readers.video pad modes on a video's last, shorter sequence: constant
# (fill_value per channel, frame number -1, timestamp -1), edge, reflect and symmetric; one
# reader per mode, every output returned. Frames within 1 level (see video_reader_vp9.py).
# oracle: atol=1
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    outs = []
    for mode in ["constant", "edge", "reflect", "symmetric"]:
        v, n, t = fn.experimental.readers.video(
            filenames=[CLIPS + "vp9.webm"], sequence_length=5, step=10, pad_mode=mode,
            fill_value=[9, 200, 31], enable_frame_num="sequence", enable_timestamps=True)
        outs += [v, n, t]
    return tuple(outs)


pipe = oracle_pipe()
