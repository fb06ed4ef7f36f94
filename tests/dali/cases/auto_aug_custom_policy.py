# oracle: iterations=4
# A custom AutoAugment policy, written as the DALI documentation shows: augmentations made
# with @augmentation (one with a magnitude range, random sign and a mag_to_param callback),
# variants of the standard ones (.augmentation(...)), a Policy of sub-policies, run by
# apply_auto_augment, and the same augmentations through select with signed_bin.
import numpy as np
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.auto_aug import augmentations as a
from nvidia.dali.auto_aug.auto_augment import apply_auto_augment
from nvidia.dali.auto_aug.core import augmentation, Policy, select, signed_bin


def to_gain(magnitude):
    return np.array([1 + magnitude], dtype=np.float32)


@augmentation(mag_range=(0, 0.5), randomly_negate=True, mag_to_param=to_gain)
def gain(data, parameter):
    return fn.cast_like(data * parameter, data)


@augmentation
def flip(data, _):
    return fn.flip(data, horizontal=1)


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=23, enable_conditionals=True)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.crop(fn.decoders.image(jpegs, output_type=types.RGB), crop=(40, 52))
    rotate = a.rotate.augmentation(mag_range=(0, 45))
    policy = Policy(
        "custom",
        num_magnitude_bins=5,
        sub_policies=[
            [(gain, 0.7, 4), (flip, 0.5, None)],
            [(rotate, 0.9, 2), (a.invert, 0.3, None)],
            [(a.posterize, 1.0, 1)],
            [(gain, 0.4, 1), (rotate, 0.6, 4)],
        ],
    )
    out = apply_auto_augment(policy, images, fill_value=0)
    idx = fn.random.uniform(values=[0, 1, 2], dtype=types.INT32)
    mag = signed_bin(fn.random.uniform(values=[0, 1, 2, 3, 4], dtype=types.INT32))
    picked = select([gain, rotate, flip], idx, images, magnitude_bin=mag, num_magnitude_bins=5)
    return out, picked


pipe = oracle_pipe()
