# oracle: iterations=4
# nvidia.dali.auto_aug: auto_augment's reduced CIFAR-10 policy (sharpness, contrast,
# brightness) with the shape as a data node, split with the samples in every branch.
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.auto_aug import auto_augment


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=8, enable_conditionals=True)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    images = fn.crop(images, crop=(48, 64))
    shape = fn.shapes(images)[:2]
    images = auto_augment.auto_augment(images, policy_name='reduced_cifar10', shape=shape)
    return images, labels


pipe = oracle_pipe()
