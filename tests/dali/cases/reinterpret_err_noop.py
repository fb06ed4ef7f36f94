# oracle: dalic_error=is a no-op: arguments specify neither a new shape, a type nor a layout
# oracle: dali_error=is no-op: arguments specify neither new shape, layout nor type
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.reinterpret(enc)


pipe = oracle_pipe()
