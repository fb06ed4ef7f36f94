# oracle: error=The cropping window [20..60, 400..500] is not valid for image dimensions [300 x 451]
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.decoders.image_slice(jpegs, start=[400, 20], shape=[100, 40])


pipe = oracle_pipe()
