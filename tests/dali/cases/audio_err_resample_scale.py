# oracle: error=The scaling factor must be non-negative. Got scale == -1
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.audio_resample(fn.cast(enc, dtype=types.FLOAT), scale=-1)


pipe = oracle_pipe()
