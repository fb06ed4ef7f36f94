# oracle: error=is not supported
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.preemphasis_filter(fn.cast(enc, dtype=types.FLOAT), border='wrap')


pipe = oracle_pipe()
