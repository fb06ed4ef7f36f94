# get_property / source_info(): the file each photo came from (through the reader, the decoder
# and a resize) and the layout string.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    small = fn.resize(images, resize_x=32, resize_y=24)
    return (jpegs.source_info(), fn.get_property(images, key="source_info"), small.source_info(),
            images.property("layout"), fn.get_property(jpegs, key="layout"))


pipe = oracle_pipe()
