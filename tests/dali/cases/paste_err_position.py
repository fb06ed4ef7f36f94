# oracle: error=paste_y must be in range [0, 1]
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.paste(images, ratio=2, paste_y=1.2, fill_value=0)


pipe = oracle_pipe()
