# Sequence-aware operators on real decoded video (FHWC from decoders.video): crop, resize and
# flip work frame by frame. Resize within 1 level (the same as the image cases' resampling).
# oracle: atol=1
# oracle: checks=outputs,serialize
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    video = fn.decoders.video(data, sequence_length=5, stride=2)
    cropped = fn.crop(video, crop=(40, 64), crop_pos_x=0.25, crop_pos_y=0.5)
    resized = fn.resize(video, size=(48, 80))
    flipped = fn.flip(video, horizontal=1, vertical=1)
    return cropped, resized, flipped


pipe = oracle_pipe()
