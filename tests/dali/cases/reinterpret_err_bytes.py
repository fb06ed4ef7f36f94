# oracle: dalic_error=must occupy the same size in bytes
# oracle: dali_error=Input and output samples must occupy the same size in bytes
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    head = fn.slice(enc, 0, 10, axes=[0])
    return fn.reinterpret(head, dtype=types.INT32, shape=[3])


pipe = oracle_pipe()
