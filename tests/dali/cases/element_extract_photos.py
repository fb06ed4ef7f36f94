# element_extract: frames 2, 0 and 1 of 3-frame sequences stacked from photos and their flips.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    seq = fn.stack(images, fn.flip(images, horizontal=1), fn.flip(images, vertical=1),
                   axis_name="F")
    a, b = fn.element_extract(seq, element_map=[2, 0])
    c = fn.element_extract(seq, element_map=[1])
    return a, b, c


pipe = oracle_pipe()
