# oracle: iterations=4
# nvidia.dali.auto_aug: RandAugment with n=2, m=9 (the suite twice, signs drawn per
# stage), on cropped photos, exactly as DALI.
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.auto_aug import rand_augment


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=8, enable_conditionals=True)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    images = fn.crop(images, crop=(48, 64))
    
    images = rand_augment.rand_augment(images, n=2, m=9)
    return images, labels


pipe = oracle_pipe()
