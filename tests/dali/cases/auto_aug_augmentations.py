# oracle: iterations=2
# Every augmentation of nvidia.dali.auto_aug.augmentations on decoded photos, each at a fixed
# magnitude bin with a random sign per sample (signed_bin), called as custom policies call
# them; the parameters come from the Constant tables the augmentations build.
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.auto_aug import augmentations as a
from nvidia.dali.auto_aug.core import signed_bin


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=17)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    images = fn.crop(images, crop=(32, 40))
    mag = signed_bin(7, seed=5)
    outs = []
    for aug in [a.shear_x, a.shear_y, a.translate_x_no_shape, a.translate_y_no_shape,
                a.rotate, a.brightness, a.contrast, a.color, a.posterize, a.solarize,
                a.solarize_add]:
        outs.append(aug(images, magnitude_bin=mag, num_magnitude_bins=11))
    outs.append(a.translate_x(images, magnitude_bin=mag, num_magnitude_bins=11, shape=[32, 40]))
    for aug in [a.invert, a.equalize, a.auto_contrast, a.identity]:
        outs.append(aug(images))
    return tuple(outs)


pipe = oracle_pipe()
