# crop_mirror_normalize refuses a layout outside DALI's list (frames without channels).
# oracle: iterations=1
# oracle: error=does not match any of the allowed layouts
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "vp9.webm", CLIPS + "mjpeg.avi"])
    video = fn.decoders.video(data, sequence_length=2)
    grey = fn.reshape(fn.slice(video, [0], [1], axes=[3]), layout="FHWC")
    frames = fn.squeeze(grey, axes=[3])
    return fn.crop_mirror_normalize(frames, crop=(16, 16), output_layout="FHW")


pipe = oracle_pipe()
