# decoders.video on bytes that are no video names the file it came from.
# oracle: iterations=1
# oracle: dalic_error=Failed to create video decoder for "build/release/clips/list.txt"
# oracle: dali_error=Failed to
from nvidia.dali import pipeline_def, fn

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    data, _ = fn.readers.file(files=[CLIPS + "list.txt"])
    return fn.decoders.video(data)


pipe = oracle_pipe()
