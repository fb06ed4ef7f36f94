# oracle: error=Unsupported DCT type: 5
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.mfcc(fn.reshape(fn.cast(enc, dtype=types.FLOAT), shape=[-1, 1]), dct_type=5)


pipe = oracle_pipe()
