# equalize on decoded photos: RGB (per channel), grey, and CHW planes (exact: OpenCV's
# equalizeHist LUT, float scale, rounding to nearest even).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    rgb = fn.decoders.image(jpegs, output_type=types.RGB)
    gray = fn.color_space_conversion(rgb, image_type=types.RGB, output_type=types.GRAY)
    chw = fn.transpose(rgb, perm=[2, 0, 1], output_layout="CHW")
    return fn.equalize(rgb), fn.equalize(gray), fn.equalize(chw)


pipe = oracle_pipe()
