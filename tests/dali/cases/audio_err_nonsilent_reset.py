# oracle: error=`reset_interval` shall be a multiple of `window_length`
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.nonsilent_region(fn.cast(enc, dtype=types.FLOAT), window_length=100)[0]


pipe = oracle_pipe()
