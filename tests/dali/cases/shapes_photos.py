# shapes / DataNode.shape(): the decoded photos' shapes as int64 (default), int32 and float.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return (images.shape(), fn.shapes(images, dtype=types.INT32),
            images.shape(dtype=types.FLOAT), fn.shapes(labels), jpegs.shape(dtype=types.UINT64))


pipe = oracle_pipe()
