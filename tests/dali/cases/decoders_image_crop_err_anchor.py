# oracle: error=Anchor for dimension 1
# oracle: dali_error=is out of range [0.0, 1.0]
# oracle: dalic_error=is out of range [0.0, 1.0]
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.decoders.image_crop(jpegs, crop=(10, 10), crop_pos_x=1.5)


pipe = oracle_pipe()
