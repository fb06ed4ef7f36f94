# lookup_table: labels mapped to floats (a key listed twice takes its last value, others get
# the default), to uint8 and int32 with ConvertSat rounding and saturation.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return (fn.lookup_table(labels, keys=[0, 1, 1], values=[0.25, 0.5, 0.75], default_value=-1),
            fn.lookup_table(labels, keys=[0, 2], values=[300.7, -1.5], default_value=2.5,
                            dtype=types.UINT8),
            fn.lookup_table(labels, keys=[1, 2], values=[-2.5, 1e10], dtype=types.INT32))


pipe = oracle_pipe()
