# oracle: error=Unsupported property key: size
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.get_property(jpegs, key="size")


pipe = oracle_pipe()
