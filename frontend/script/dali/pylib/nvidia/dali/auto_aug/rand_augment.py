# RandAugment (https://arxiv.org/abs/1909.13719), nvidia.dali.auto_aug.rand_augment of DALI
# 2.4 as dalic provides it: per sample, `n` augmentations drawn at random from the suite,
# each at magnitude bin `m`.
import warnings

from nvidia.dali import fn
from nvidia.dali import types
from nvidia.dali.auto_aug import augmentations as a
from nvidia.dali.auto_aug.core import signed_bin, _Augmentation
from nvidia.dali.auto_aug.core._args import forbid_unused_kwargs as _forbid_unused_kwargs
from nvidia.dali.auto_aug.core._utils import (
    get_translations as _get_translations,
    pretty_select as _pretty_select,
)


def _select_suite(augmentations, excluded, suite_name):
    names = [aug.name for aug in augmentations]
    excluded = excluded or []
    for name in excluded:
        if name not in names:
            raise Exception(
                f"The `{name}` was specified in `excluded`, but the {suite_name} suite "
                f"does not contain augmentation with this name. "
                f"The augmentations in the suite are: {', '.join(names)}."
            )
    return [aug for aug in augmentations if aug.name not in excluded]


def rand_augment(
    data,
    n,
    m,
    num_magnitude_bins=31,
    shape=None,
    fill_value=128,
    interp_type=None,
    max_translate_abs=None,
    max_translate_rel=None,
    seed=None,
    monotonic_mag=True,
    excluded=None,
):
    """Applies RandAugment to HWC images or FHWC videos of uint8: `n` augmentations per
    sample, magnitude bin `m` of `num_magnitude_bins`."""
    aug_kwargs = {"fill_value": fill_value, "interp_type": interp_type}
    use_shape = shape is not None
    if use_shape:
        aug_kwargs["shape"] = shape
    if monotonic_mag:
        augmentations = get_rand_augment_suite(use_shape, max_translate_abs, max_translate_rel)
    else:
        augmentations = get_rand_augment_non_monotonic_suite(
            use_shape, max_translate_abs, max_translate_rel
        )
    selected_augments = _select_suite(augmentations, excluded, "RandAugment")
    return apply_rand_augment(
        selected_augments,
        data,
        n,
        m,
        num_magnitude_bins=num_magnitude_bins,
        seed=seed,
        **aug_kwargs,
    )


def apply_rand_augment(augmentations, data, n, m, num_magnitude_bins=31, seed=None, **kwargs):
    """Applies `augmentations` RandAugment's way: `n` of them per sample, drawn at random,
    each with magnitude bin `m`."""
    if not isinstance(n, int) or n < 0:
        raise Exception(
            f"The number of operations to apply `n` must be a non-negative integer, got {n}."
        )
    if not isinstance(num_magnitude_bins, int) or num_magnitude_bins < 1:
        raise Exception(
            f"The `num_magnitude_bins` must be a positive integer, got {num_magnitude_bins}."
        )
    if not isinstance(m, int) or not 0 <= m < num_magnitude_bins:
        raise Exception(
            f"The magnitude bin `m` must be an integer from "
            f"`[0, {num_magnitude_bins - 1}]` range. Got {m}."
        )
    if n == 0:
        warnings.warn(
            "The `apply_rand_augment` was called with `n=0`, no augmentation will be applied.",
            Warning,
        )
        return data
    if len(augmentations) == 0:
        raise Exception(
            "The `augmentations` list cannot be empty, unless n=0. "
            "Got empty list in `apply_rand_augment` call."
        )
    shape = tuple() if n == 1 else (n,)
    op_idx = fn.random.uniform(
        values=list(range(len(augmentations))), seed=seed, shape=shape, dtype=types.INT32
    )
    use_signed_magnitudes = any(aug.randomly_negate for aug in augmentations)
    mag_bin = signed_bin(m, seed=seed, shape=shape) if use_signed_magnitudes else m
    _forbid_unused_kwargs(augmentations, kwargs, "apply_rand_augment")
    for level_idx in range(n):
        level_mag_bin = mag_bin if not use_signed_magnitudes or n == 1 else mag_bin[level_idx]
        op_kwargs = dict(
            data=data, magnitude_bin=level_mag_bin, num_magnitude_bins=num_magnitude_bins, **kwargs
        )
        level_op_idx = op_idx if n == 1 else op_idx[level_idx]
        data = _pretty_select(
            augmentations,
            level_op_idx,
            op_kwargs,
            auto_aug_name="apply_rand_augment",
            ref_suite_name="get_rand_augment_suite",
        )
    return data


def _rand_translations(use_shape, max_translate_abs, max_translate_rel):
    # 100 pixels, or 100/224 of the shape
    return _get_translations(use_shape, 100, 100 / 224, max_translate_abs, max_translate_rel)


def get_rand_augment_suite(use_shape=False, max_translate_abs=None, max_translate_rel=None):
    """RandAugment's augmentations, stronger as the magnitude bin grows."""
    return _rand_translations(use_shape, max_translate_abs, max_translate_rel) + [
        a.shear_x.augmentation((0, 0.3), True),
        a.shear_y.augmentation((0, 0.3), True),
        a.rotate.augmentation((0, 30), True),
        a.brightness.augmentation((0, 0.9), True, a.shift_enhance_range),
        a.contrast.augmentation((0, 0.9), True, a.shift_enhance_range),
        a.color.augmentation((0, 0.9), True, a.shift_enhance_range),
        a.sharpness.augmentation((0, 0.9), True, a.sharpness_kernel),
        a.posterize.augmentation((8, 4), False, a.poster_mask_uint8),
        # a lower threshold solarizes more
        a.solarize.augmentation((256, 0)),
        a.equalize,
        a.auto_contrast,
        a.identity,
    ]


def get_rand_augment_non_monotonic_suite(
    use_shape=False, max_translate_abs=None, max_translate_rel=None
):
    """RandAugment's augmentations with AutoAugment's magnitude ranges for the colour ones
    (not monotonic in the bin)."""
    return _rand_translations(use_shape, max_translate_abs, max_translate_rel) + [
        a.shear_x.augmentation((0, 0.3), True),
        a.shear_y.augmentation((0, 0.3), True),
        a.rotate.augmentation((0, 30), True),
        a.brightness.augmentation((0.1, 1.9), False, None),
        a.contrast.augmentation((0.1, 1.9), False, None),
        a.color.augmentation((0.1, 1.9), False, None),
        a.sharpness.augmentation((0.1, 1.9), False, a.sharpness_kernel_shifted),
        a.posterize.augmentation((0, 4), False, a.poster_mask_uint8),
        a.solarize.augmentation((0, 256), False, None),
        a.equalize,
        a.auto_contrast,
        a.identity,
    ]
