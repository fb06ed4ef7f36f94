# cast_like: photos cast to the type of a float constant, labels to the photos' uint8, and
# normalized photos (negative and above 255) back to uint8 (ConvertSat: round half away from
# zero, saturate).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    as_float = fn.cast_like(images, fn.constant(fdata=0.5))
    scaled = fn.crop_mirror_normalize(images, mean=[40.25, 0, 100], std=[0.5, 0.8, 2],
                                      output_layout="HWC")
    return as_float, fn.cast_like(labels, images), fn.cast_like(scaled, images)


pipe = oracle_pipe()
