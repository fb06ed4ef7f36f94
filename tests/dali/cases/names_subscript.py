# Subscripts: ranges, single indices (dimension dropped), negative indices, an index from a
# pipeline operator (DALI adds _SubscriptDimCheck for a plain [:] on a dimension it keeps).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    col = fn.cast(fn.random.uniform(range=[0.0, 30.0]), dtype=types.INT32)
    return (images[10:40, 20:60],
            images[:, :, 0],
            images[5, :, 1:3],
            images[-12:, -9:-2],
            images[:, col],
            images[:],
            labels[0])


pipe = oracle_pipe()
