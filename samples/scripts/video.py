# A video classification front end, as NVIDIA's DALI video examples build it: sequences of
# 8 frames (every 2nd frame) read from a directory of classes, resized so the shorter side
# is 64, a random 56x56 crop with a random horizontal flip, normalized to float and laid
# out frames-first, channels-second (FCHW) for a 3-D CNN.
#
# The clips come from `make video-samples` (tools/mkclips writes VP9 and MJPEG clips into
# build/video/clips/; its tree/ directory holds one subdirectory per label). Then, from the
# repository root:
#
#     dalic tui samples/scripts/video.py          (the workbench: frame strips)
#     dalic run samples/scripts/video.py -n 4
#
# Any directory of videos (one subdirectory per label) works as file_root.
# oracle: atol=0.02
# (frames within 1 level of DALI's, video_yuv.h: 1 / (0.217 * 255) after normalizing)
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=7)
def video_pipeline():
    frames, label = fn.experimental.readers.video(
        file_root="build/video/clips/tree", sequence_length=8, stride=2, step=4,
        random_shuffle=True, initial_fill=8, name="Reader")
    frames = fn.resize(frames, resize_shorter=64)
    frames = fn.crop_mirror_normalize(
        frames, crop=(56, 56), crop_pos_x=fn.random.uniform(range=(0.0, 1.0)),
        crop_pos_y=fn.random.uniform(range=(0.0, 1.0)), mirror=fn.random.coin_flip(),
        mean=[0.43216 * 255, 0.394666 * 255, 0.37645 * 255],
        std=[0.22803 * 255, 0.22145 * 255, 0.216989 * 255],
        dtype=types.FLOAT, output_layout="FCHW")
    return frames, label


pipe = video_pipeline()
