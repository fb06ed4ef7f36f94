# oracle: iterations=3
# A branch no sample takes in the first iteration (all labels are 0 there): its operators
# get empty batches; DALI 2.4's memory statistics report 2^63 for them (an average over zero
# samples), but not for the split and merge operators (docs/stats.md).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=3, enable_conditionals=True)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=False)
    x = fn.random.uniform(range=[0, 1], shape=[10])
    if labels[0] > 0:
        if x[0] > 0.5:
            y = x * 2
        else:
            y = x * 3
        y = fn.cast(y, dtype=types.FLOAT16)
    else:
        y = fn.cast(x, dtype=types.FLOAT16)
    return y, labels


pipe = oracle_pipe()
