# one_hot: labels ([1]-shaped, the legacy scalar form) with 3 and 5 classes, on/off values cast
# to uint8 and int32, and with an explicit axis (a [1, 3] output) named C.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return (fn.one_hot(labels, num_classes=3), fn.one_hot(labels, num_classes=5, on_value=300.6,
                                                         off_value=-1.5, dtype=types.UINT8),
            fn.one_hot(labels, num_classes=3, axis=-1, on_value=2.5, off_value=-1.5,
                       dtype=types.INT32),
            fn.one_hot(fn.reshape(labels, layout="X"), num_classes=3, axis=0, axis_name="C"))


pipe = oracle_pipe()
