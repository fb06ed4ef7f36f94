# oracle: error=is out of bounds for sample with sequence length equal `1`
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    seq = fn.expand_dims(images, axes=[0], new_axis_names="F")
    return fn.element_extract(seq, element_map=[1])


pipe = oracle_pipe()
