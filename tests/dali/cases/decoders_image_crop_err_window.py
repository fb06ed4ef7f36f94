# oracle: error=The cropping window [-1350..1650, 206..246] is not valid for image dimensions [300 x 451]
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.decoders.image_crop(jpegs, crop=(3000, 40))


pipe = oracle_pipe()
