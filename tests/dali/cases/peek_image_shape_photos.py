# peek_image_shape: the decoded shapes of JPEGs (an EXIF-rotated one, grayscale ones) and a
# PNG, with and without the orientation, for GRAY and ANY_DATA, in int32 and float.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return (fn.peek_image_shape(jpegs), fn.peek_image_shape(jpegs, adjust_orientation=False),
            fn.peek_image_shape(jpegs, image_type=types.GRAY, dtype=types.INT32),
            fn.peek_image_shape(jpegs, image_type=types.ANY_DATA, dtype=types.FLOAT),
            fn.experimental.peek_image_shape(jpegs, dtype=types.UINT64))


pipe = oracle_pipe()
