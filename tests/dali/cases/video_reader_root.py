# experimental.readers.video over a file_root tree (labels from the sorted subdirectories,
# files sorted by path, VP9 and MJPEG), scalar frame numbers, random_shuffle
# with a small initial_fill. Frames within 1 level (see video_reader_vp9.py).
# oracle: atol=1
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=11)
def oracle_pipe():
    v, label, n = fn.experimental.readers.video(
        file_root=CLIPS + "tree", sequence_length=3, stride=2, enable_frame_num="scalar",
        random_shuffle=True, initial_fill=5)
    return v, label, n


pipe = oracle_pipe()
