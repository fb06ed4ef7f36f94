# color_space_conversion on decoded photos: every pair DALI's CPU operator supports
# (exact: OpenCV's fixed-point grey, DALI's float BT.601 YCbCr formulas, ConvertSat).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    rgb = fn.decoders.image(jpegs, output_type=types.RGB)
    csc = fn.color_space_conversion
    bgr = csc(rgb, image_type=types.RGB, output_type=types.BGR)
    ycc = csc(rgb, image_type=types.RGB, output_type=types.YCbCr)
    gray = csc(bgr, image_type=types.BGR, output_type=types.GRAY)
    return (bgr, csc(bgr, image_type=types.BGR, output_type=types.RGB), ycc,
            csc(bgr, image_type=types.BGR, output_type=types.YCbCr),
            csc(ycc, image_type=types.YCbCr, output_type=types.RGB),
            csc(ycc, image_type=types.YCbCr, output_type=types.BGR),
            csc(rgb, image_type=types.RGB, output_type=types.GRAY), gray,
            csc(gray, image_type=types.GRAY, output_type=types.RGB),
            csc(gray, image_type=types.GRAY, output_type=types.BGR),
            csc(gray, image_type=types.GRAY, output_type=types.YCbCr),
            csc(ycc, image_type=types.YCbCr, output_type=types.GRAY))


pipe = oracle_pipe()
