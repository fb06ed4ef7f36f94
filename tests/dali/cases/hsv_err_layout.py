# oracle: error=does not match any of the allowed layouts
# hsv refuses a CHW image (channel-last layouts only).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.hsv(fn.transpose(images, perm=[2, 0, 1], output_layout="CHW"), hue=10.0)


pipe = oracle_pipe()
