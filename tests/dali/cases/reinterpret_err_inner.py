# oracle: dalic_error=is not divisible by the size of INT32
# oracle: dali_error=innermost dimension is not divisible
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    head = fn.slice(enc, 0, 10, axes=[0])
    return fn.reinterpret(head, dtype=types.INT32)


pipe = oracle_pipe()
