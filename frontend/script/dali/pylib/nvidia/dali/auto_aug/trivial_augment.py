# TrivialAugment Wide (https://arxiv.org/abs/2103.10158), nvidia.dali.auto_aug.
# trivial_augment of DALI 2.4 as dalic provides it: per sample one augmentation and one
# magnitude bin, both drawn at random.
from nvidia.dali import fn
from nvidia.dali import types
from nvidia.dali.auto_aug import augmentations as a
from nvidia.dali.auto_aug.core import _Augmentation, signed_bin
from nvidia.dali.auto_aug.core._args import forbid_unused_kwargs as _forbid_unused_kwargs
from nvidia.dali.auto_aug.core._utils import (
    get_translations as _get_translations,
    pretty_select as _pretty_select,
)
from nvidia.dali.auto_aug.rand_augment import _select_suite


def trivial_augment_wide(
    data,
    num_magnitude_bins=31,
    shape=None,
    fill_value=128,
    interp_type=None,
    max_translate_abs=None,
    max_translate_rel=None,
    seed=None,
    excluded=None,
):
    """Applies TrivialAugment Wide to HWC images or FHWC videos of uint8."""
    aug_kwargs = {"fill_value": fill_value, "interp_type": interp_type}
    use_shape = shape is not None
    if use_shape:
        aug_kwargs["shape"] = shape
    augmentations = get_trivial_augment_wide_suite(
        use_shape=use_shape,
        max_translate_abs=max_translate_abs,
        max_translate_rel=max_translate_rel,
    )
    selected_augments = _select_suite(augmentations, excluded, "TrivialAugmentWide")
    return apply_trivial_augment(
        selected_augments, data, num_magnitude_bins=num_magnitude_bins, seed=seed, **aug_kwargs
    )


def apply_trivial_augment(augmentations, data, num_magnitude_bins=31, seed=None, **kwargs):
    """Applies `augmentations` TrivialAugment's way: one per sample, with a random magnitude
    bin from [0, num_magnitude_bins - 1]."""
    if not isinstance(num_magnitude_bins, int) or num_magnitude_bins < 1:
        raise Exception(
            f"The `num_magnitude_bins` must be a positive integer, got {num_magnitude_bins}."
        )
    if len(augmentations) == 0:
        raise Exception(
            "The `augmentations` list cannot be empty. "
            "Got empty list in `apply_trivial_augment` call."
        )
    magnitude_bin = fn.random.uniform(
        values=list(range(num_magnitude_bins)), dtype=types.INT32, seed=seed
    )
    if any(aug.randomly_negate for aug in augmentations):
        magnitude_bin = signed_bin(magnitude_bin, seed=seed)
    _forbid_unused_kwargs(augmentations, kwargs, "apply_trivial_augment")
    op_kwargs = dict(
        data=data, magnitude_bin=magnitude_bin, num_magnitude_bins=num_magnitude_bins, **kwargs
    )
    op_idx = fn.random.uniform(values=list(range(len(augmentations))), seed=seed, dtype=types.INT32)
    return _pretty_select(
        augmentations,
        op_idx,
        op_kwargs,
        auto_aug_name="apply_trivial_augment",
        ref_suite_name="get_trivial_augment_wide_suite",
    )


def get_trivial_augment_wide_suite(use_shape=False, max_translate_abs=None, max_translate_rel=None):
    """The 14 augmentations of TrivialAugment's wide augmentation space."""
    translations = _get_translations(use_shape, 32, 1.0, max_translate_abs, max_translate_rel)
    return translations + [
        a.shear_x.augmentation((0, 0.99), True),
        a.shear_y.augmentation((0, 0.99), True),
        a.rotate.augmentation((0, 135), True),
        a.brightness.augmentation((0.01, 0.99), True, a.shift_enhance_range),
        a.contrast.augmentation((0.01, 0.99), True, a.shift_enhance_range),
        a.color.augmentation((0.01, 0.99), True, a.shift_enhance_range),
        a.sharpness.augmentation((0.01, 0.99), True, a.sharpness_kernel),
        a.posterize.augmentation((8, 2), False, a.poster_mask_uint8),
        # a lower threshold solarizes more
        a.solarize.augmentation((256, 0)),
        a.equalize,
        a.auto_contrast,
        a.identity,
    ]
