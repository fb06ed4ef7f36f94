# oracle: error=Provided empty range
# random_area must not be empty.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.decoders.image_random_crop(jpegs, random_area=[0.6, 0.5])


pipe = oracle_pipe()
