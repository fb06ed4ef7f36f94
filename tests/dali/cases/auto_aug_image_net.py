# oracle: iterations=4
# nvidia.dali.auto_aug: AutoAugment's ImageNet policy (auto_augment_image_net) with a fixed
# shape for the translations, on cropped photos: DALI's graph (Constant tables, random
# draws, select's splits and merges), instance names and outputs, exactly.
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.auto_aug import auto_augment


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=8, enable_conditionals=True)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    images = fn.crop(images, crop=(48, 64))
    
    images = auto_augment.auto_augment_image_net(images, shape=[48, 64])
    return images, labels


pipe = oracle_pipe()
