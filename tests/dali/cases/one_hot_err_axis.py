# oracle: error=Provided axis is outside of allowed range, got: 3, expected to be in range: [-1, 1].
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.one_hot(labels, num_classes=3, axis=3)


pipe = oracle_pipe()
