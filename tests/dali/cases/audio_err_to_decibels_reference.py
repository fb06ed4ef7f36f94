# oracle: error=`reference` argument can't be zero
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.to_decibels(fn.cast(enc, dtype=types.FLOAT), reference=0.0)


pipe = oracle_pipe()
