# crop_mirror_normalize on FHWC video with the default output_layout (CHW): DALI requires the
# output layout to be a permutation of the input's.
# oracle: iterations=1
# oracle: error=not a permutation of input layout
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    video = fn.decoders.video(data, sequence_length=2)
    return fn.crop_mirror_normalize(video, crop=(16, 16))


pipe = oracle_pipe()
