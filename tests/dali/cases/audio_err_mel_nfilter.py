# oracle: error=number of filters should be > 0
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.mel_filter_bank(fn.reshape(fn.cast(enc, dtype=types.FLOAT), shape=[-1, 1]), nfilter=0)


pipe = oracle_pipe()
