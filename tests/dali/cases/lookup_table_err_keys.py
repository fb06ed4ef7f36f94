# oracle: error=`keys` should be in the range [0, 65535]
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.lookup_table(labels, keys=[-1, 2], values=[1, 2])


pipe = oracle_pipe()
