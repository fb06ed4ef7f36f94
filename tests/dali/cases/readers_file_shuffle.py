# oracle: iterations=6
# readers.file with random_shuffle: DALI's shuffle buffer (initial_fill) and its seed from the
# pipeline's; six iterations wrap the 12 files more than once.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=1234)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True,
                                    initial_fill=4)
    return fn.peek_image_shape(jpegs), labels


pipe = oracle_pipe()
