# oracle: error=Failed to open encoded data
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.decoders.audio(enc)[0]


pipe = oracle_pipe()
