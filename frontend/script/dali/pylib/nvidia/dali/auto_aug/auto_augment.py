# AutoAugment (https://arxiv.org/abs/1805.09501), nvidia.dali.auto_aug.auto_augment of DALI
# 2.4 as dalic provides it: per sample, one sub-policy drawn at random, whose stages each run
# with their probability. The policies are the paper's, as DALI 2.4 defines them.
import numpy as np

from nvidia.dali import fn
from nvidia.dali import types
from nvidia.dali.auto_aug import augmentations as a
from nvidia.dali.auto_aug.core import _Augmentation, Policy, signed_bin
from nvidia.dali.auto_aug.core._args import forbid_unused_kwargs as _forbid_unused_kwargs
from nvidia.dali.auto_aug.core._utils import (
    get_translations as _get_translations,
    pretty_select as _pretty_select,
)


def auto_augment(
    data,
    policy_name="image_net",
    shape=None,
    fill_value=128,
    interp_type=None,
    max_translate_abs=None,
    max_translate_rel=None,
    seed=None,
):
    """Applies one of the AutoAugment paper's policies (`image_net`, `reduced_image_net`,
    `svhn`, `reduced_cifar10`) to HWC images or FHWC videos of uint8."""
    predefined_policies = {
        "image_net": get_image_net_policy,
        "reduced_image_net": get_reduced_image_net_policy,
        "svhn": get_svhn_policy,
        "reduced_cifar10": get_reduced_cifar10_policy,
    }
    policies_without_translation = ("reduced_image_net",)
    shape_related_args = (
        (shape, "shape"),
        (max_translate_abs, "max_translate_abs"),
        (max_translate_rel, "max_translate_rel"),
    )
    if not isinstance(policy_name, str) or policy_name not in predefined_policies:
        policies_str = ", ".join([f"`{name}`" for name in predefined_policies.keys()])
        raise Exception(
            f"The `policy_name` must be a string that takes one of the values: {policies_str}"
        )
    if policy_name in policies_without_translation:
        for arg, arg_name in shape_related_args:
            if arg is not None:
                raise Exception(
                    f"The policy `{policy_name}` does not contain any augmentations that rely "
                    f"on the image shape. The `{arg_name}` argument must not be specified in "
                    f"that case."
                )
    aug_kwargs = {"fill_value": fill_value, "interp_type": interp_type}
    use_shape = shape is not None
    if use_shape:
        aug_kwargs["shape"] = shape
    if policy_name in policies_without_translation:
        policy = predefined_policies[policy_name]()
    else:
        policy = predefined_policies[policy_name](
            use_shape=use_shape,
            max_translate_abs=max_translate_abs,
            max_translate_rel=max_translate_rel,
        )
    return apply_auto_augment(policy, data, seed, **aug_kwargs)


def auto_augment_image_net(
    data,
    shape=None,
    fill_value=128,
    interp_type=None,
    max_translate_abs=None,
    max_translate_rel=None,
    seed=None,
):
    """auto_augment with the `image_net` policy."""
    return auto_augment(
        data,
        "image_net",
        shape,
        fill_value,
        interp_type,
        max_translate_abs,
        max_translate_rel,
        seed,
    )


def apply_auto_augment(policy, data, seed=None, **kwargs):
    """Runs `policy` AutoAugment's way: per sample a random sub-policy, whose stages run in
    order, each with its probability; `kwargs` go to the augmentations that take them."""
    if len(policy.sub_policies) == 0:
        raise Exception(f"Cannot run empty policy. Got {policy} in `apply_auto_augment` call.")
    max_policy_len = max(len(sub_policy) for sub_policy in policy.sub_policies)
    should_run = fn.random.uniform(
        range=[0, 1], shape=(max_policy_len,), dtype=types.FLOAT, seed=seed
    )
    sub_policy_id = fn.random.uniform(
        values=list(range(len(policy.sub_policies))), seed=seed, dtype=types.INT32
    )
    run_probabilities = _sub_policy_to_probability_map(policy)[sub_policy_id]
    magnitude_bins = _sub_policy_to_magnitude_bin_map(policy)[sub_policy_id]
    aug_ids, augmentations = _sub_policy_to_augmentation_map(policy)
    aug_ids = aug_ids[sub_policy_id]
    if any(aug.randomly_negate for aug in policy.augmentations.values()):
        magnitude_bins = signed_bin(magnitude_bins, seed=seed, shape=(max_policy_len,))
    _forbid_unused_kwargs(policy.augmentations.values(), kwargs, "apply_auto_augment")
    for stage_id in range(max_policy_len):
        if should_run[stage_id] < run_probabilities[stage_id]:
            op_kwargs = dict(
                data=data,
                magnitude_bin=magnitude_bins[stage_id],
                num_magnitude_bins=policy.num_magnitude_bins,
                **kwargs,
            )
            data = _pretty_select(
                augmentations[stage_id],
                aug_ids[stage_id],
                op_kwargs,
                auto_aug_name="apply_auto_augment",
                ref_suite_name="get_image_net_policy",
            )
    return data


def _policy_table(policy, value, fill, dtype):
    # sub-policy x stage table of value(stage), `fill` past a sub-policy's end
    width = max(len(sub_policy) for sub_policy in policy.sub_policies)
    rows = []
    for sub_policy in policy.sub_policies:
        row = [value(stage) for stage in sub_policy]
        rows.append(row + [fill] * (width - len(row)))
    return np.array(rows, dtype=dtype)


def _sub_policy_to_probability_map(policy):
    return types.Constant(_policy_table(policy, lambda stage: stage[1], 0.0, np.float32))


def _sub_policy_to_magnitude_bin_map(policy):
    # a stage whose augmentation takes no magnitude holds bin -999, as DALI's table does
    # (the serialized constant matches); that augmentation never reads it
    return types.Constant(
        _policy_table(policy, lambda stage: -999 if stage[2] is None else stage[2], 0, np.int32)
    )


def _sub_policy_to_augmentation_matrix_map(policy):
    """Per stage, the distinct augmentations used there (in order of first use, then
    identity), and the table sub-policy x stage -> index into that stage's list."""
    sub_policies = policy.sub_policies
    max_policy_len = max(len(sub_policy) for sub_policy in sub_policies)
    augmentations = []
    for stage_idx in range(max_policy_len):
        stage_augments = []
        for sub_policy in sub_policies:
            if stage_idx < len(sub_policy):
                aug = sub_policy[stage_idx][0]
                if not any(aug is known for known in stage_augments):
                    stage_augments.append(aug)
        augmentations.append(stage_augments + [a.identity])

    def index_in(stage_augments, aug):
        for i in range(len(stage_augments)):
            if stage_augments[i] is aug:
                return i

    rows = []
    for sub_policy in sub_policies:
        row = []
        for stage_idx in range(max_policy_len):
            stage_augments = augmentations[stage_idx]
            if stage_idx < len(sub_policy):
                row.append(index_in(stage_augments, sub_policy[stage_idx][0]))
            else:
                row.append(len(stage_augments) - 1)
        rows.append(row)
    return np.array(rows, dtype=np.int32), augmentations


def _sub_policy_to_augmentation_map(policy):
    matrix, augments = _sub_policy_to_augmentation_matrix_map(policy)
    return types.Constant(matrix), augments


def _translations(use_shape, max_translate_abs, max_translate_rel):
    return _get_translations(use_shape, 250, 1.0, max_translate_abs, max_translate_rel)


def get_image_net_policy(use_shape=False, max_translate_abs=None, max_translate_rel=None):
    """The policy tuned on ImageNet in the AutoAugment paper."""
    _, translate_y = _translations(use_shape, max_translate_abs, max_translate_rel)
    shear_x = a.shear_x.augmentation((0, 0.3), True)
    shear_y = a.shear_y.augmentation((0, 0.3), True)
    rotate = a.rotate.augmentation((0, 30), True)
    color = a.color.augmentation((0.1, 1.9), False, None)
    posterize = a.posterize.augmentation((0, 4), False, a.poster_mask_uint8)
    solarize = a.solarize.augmentation((0, 256), False)
    solarize_add = a.solarize_add.augmentation((0, 110), False)
    invert = a.invert
    equalize = a.equalize
    auto_contrast = a.auto_contrast
    return Policy(
        name="ImageNetPolicy",
        num_magnitude_bins=11,
        sub_policies=[
            [(equalize, 0.8, None), (shear_y, 0.8, 4)],
            [(color, 0.4, 9), (equalize, 0.6, None)],
            [(color, 0.4, 1), (rotate, 0.6, 8)],
            [(solarize, 0.8, 3), (equalize, 0.4, None)],
            [(solarize, 0.4, 2), (solarize, 0.6, 2)],
            [(color, 0.2, 0), (equalize, 0.8, None)],
            [(equalize, 0.4, None), (solarize_add, 0.8, 3)],
            [(shear_x, 0.2, 9), (rotate, 0.6, 8)],
            [(color, 0.6, 1), (equalize, 1.0, None)],
            [(invert, 0.4, None), (rotate, 0.6, 0)],
            [(equalize, 1.0, None), (shear_y, 0.6, 3)],
            [(color, 0.4, 7), (equalize, 0.6, None)],
            [(posterize, 0.4, 6), (auto_contrast, 0.4, None)],
            [(solarize, 0.6, 8), (color, 0.6, 9)],
            [(solarize, 0.2, 4), (rotate, 0.8, 9)],
            [(rotate, 1.0, 7), (translate_y, 0.8, 9)],
            [(solarize, 0.8, 4)],
            [(shear_y, 0.8, 0), (color, 0.6, 4)],
            [(color, 1.0, 0), (rotate, 0.6, 2)],
            [(equalize, 0.8, None)],
            [(equalize, 1.0, None), (auto_contrast, 0.6, None)],
            [(shear_y, 0.4, 7), (solarize_add, 0.6, 7)],
            [(posterize, 0.8, 2), (solarize, 0.6, 10)],
            [(solarize, 0.6, 8), (equalize, 0.6, None)],
            [(color, 0.8, 6), (rotate, 0.4, 5)],
        ],
    )


def get_reduced_cifar10_policy(use_shape=False, max_translate_abs=None, max_translate_rel=None):
    """The policy tuned on reduced CIFAR-10 in the AutoAugment paper."""
    translate_x, translate_y = _translations(use_shape, max_translate_abs, max_translate_rel)
    shear_y = a.shear_y.augmentation((0, 0.3), True)
    rotate = a.rotate.augmentation((0, 30), True)
    brightness = a.brightness.augmentation((0.1, 1.9), False, None)
    color = a.color.augmentation((0.1, 1.9), False, None)
    contrast = a.contrast.augmentation((0.1, 1.9), False, None)
    sharpness = a.sharpness.augmentation((0.1, 1.9), False, a.sharpness_kernel_shifted)
    posterize = a.posterize.augmentation((0, 4), False, a.poster_mask_uint8)
    solarize = a.solarize.augmentation((0, 256), False)
    invert = a.invert
    equalize = a.equalize
    auto_contrast = a.auto_contrast
    return Policy(
        name="ReducedCifar10Policy",
        num_magnitude_bins=11,
        sub_policies=[
            [(invert, 0.1, None), (contrast, 0.2, 6)],
            [(rotate, 0.7, 2), (translate_x, 0.3, 9)],
            [(sharpness, 0.8, 1), (sharpness, 0.9, 3)],
            [(shear_y, 0.5, 8), (translate_y, 0.7, 9)],
            [(auto_contrast, 0.5, None), (equalize, 0.9, None)],
            [(shear_y, 0.2, 7), (posterize, 0.3, 7)],
            [(color, 0.4, 3), (brightness, 0.6, 7)],
            [(sharpness, 0.3, 9), (brightness, 0.7, 9)],
            [(equalize, 0.6, None), (equalize, 0.5, None)],
            [(contrast, 0.6, 7), (sharpness, 0.6, 5)],
            [(color, 0.7, 7), (translate_x, 0.5, 8)],
            [(equalize, 0.3, None), (auto_contrast, 0.4, None)],
            [(translate_y, 0.4, 3), (sharpness, 0.2, 6)],
            [(brightness, 0.9, 6), (color, 0.2, 8)],
            [(solarize, 0.5, 2)],
            [(equalize, 0.2, None), (auto_contrast, 0.6, None)],
            [(equalize, 0.2, None), (equalize, 0.6, None)],
            [(color, 0.9, 9), (equalize, 0.6, None)],
            [(auto_contrast, 0.8, None), (solarize, 0.2, 8)],
            [(brightness, 0.1, 3), (color, 0.7, 0)],
            [(solarize, 0.4, 5), (auto_contrast, 0.9, None)],
            [(translate_y, 0.9, 9), (translate_y, 0.7, 9)],
            [(auto_contrast, 0.9, None), (solarize, 0.8, 3)],
            [(equalize, 0.8, None), (invert, 0.1, None)],
            [(translate_y, 0.7, 9), (auto_contrast, 0.9, None)],
        ],
    )


def get_svhn_policy(use_shape=False, max_translate_abs=None, max_translate_rel=None):
    """The policy tuned on SVHN in the AutoAugment paper."""
    translate_x, translate_y = _translations(use_shape, max_translate_abs, max_translate_rel)
    shear_x = a.shear_x.augmentation((0, 0.3), True)
    shear_y = a.shear_y.augmentation((0, 0.3), True)
    rotate = a.rotate.augmentation((0, 30), True)
    contrast = a.contrast.augmentation((0.1, 1.9), False, None)
    solarize = a.solarize.augmentation((0, 256), False)
    invert = a.invert
    equalize = a.equalize
    auto_contrast = a.auto_contrast
    return Policy(
        name="SvhnPolicy",
        num_magnitude_bins=11,
        sub_policies=[
            [(shear_x, 0.9, 4), (invert, 0.2, None)],
            [(shear_y, 0.9, 8), (invert, 0.7, None)],
            [(equalize, 0.6, None), (solarize, 0.6, 6)],
            [(invert, 0.9, None), (equalize, 0.6, None)],
            [(equalize, 0.6, None), (rotate, 0.9, 3)],
            [(shear_x, 0.9, 4), (auto_contrast, 0.8, None)],
            [(shear_y, 0.9, 8), (invert, 0.4, None)],
            [(shear_y, 0.9, 5), (solarize, 0.2, 6)],
            [(invert, 0.9, None), (auto_contrast, 0.8, None)],
            [(equalize, 0.6, None), (rotate, 0.9, 3)],
            [(shear_x, 0.9, 4), (solarize, 0.3, 3)],
            [(shear_y, 0.8, 8), (invert, 0.7, None)],
            [(equalize, 0.9, None), (translate_y, 0.6, 6)],
            [(invert, 0.9, None), (equalize, 0.6, None)],
            [(contrast, 0.3, 3), (rotate, 0.8, 4)],
            [(invert, 0.8, None)],
            [(shear_y, 0.7, 6), (solarize, 0.4, 8)],
            [(invert, 0.6, None), (rotate, 0.8, 4)],
            [(shear_y, 0.3, 7), (translate_x, 0.9, 3)],
            [(shear_x, 0.1, 6), (invert, 0.6, None)],
            [(solarize, 0.7, 2), (translate_y, 0.6, 7)],
            [(shear_y, 0.8, 4), (invert, 0.8, None)],
            [(shear_x, 0.7, 9), (translate_y, 0.8, 3)],
            [(shear_y, 0.8, 5), (auto_contrast, 0.7, None)],
            [(shear_x, 0.7, 2), (invert, 0.1, None)],
        ],
    )


def get_reduced_image_net_policy():
    """The policy tuned on reduced ImageNet in the AutoAugment paper (no translations)."""
    shear_x = a.shear_x.augmentation((0, 0.3), True)
    rotate = a.rotate.augmentation((0, 30), True)
    color = a.color.augmentation((0.1, 1.9), False, None)
    contrast = a.contrast.augmentation((0.1, 1.9), False, None)
    sharpness = a.sharpness.augmentation((0.1, 1.9), False, a.sharpness_kernel_shifted)
    posterize = a.posterize.augmentation((0, 4), False, a.poster_mask_uint8)
    solarize = a.solarize.augmentation((0, 256), False)
    invert = a.invert
    equalize = a.equalize
    auto_contrast = a.auto_contrast
    return Policy(
        name="ReducedImageNetPolicy",
        num_magnitude_bins=11,
        sub_policies=[
            [(posterize, 0.4, 8), (rotate, 0.6, 9)],
            [(solarize, 0.6, 5), (auto_contrast, 0.6, None)],
            [(equalize, 0.8, None), (equalize, 0.6, None)],
            [(posterize, 0.6, 7), (posterize, 0.6, 6)],
            [(equalize, 0.4, None), (solarize, 0.2, 4)],
            [(equalize, 0.4, None), (rotate, 0.8, 8)],
            [(solarize, 0.6, 3), (equalize, 0.6, None)],
            [(posterize, 0.8, 5), (equalize, 1.0, None)],
            [(rotate, 0.2, 3), (solarize, 0.6, 8)],
            [(equalize, 0.6, None), (posterize, 0.4, 6)],
            [(rotate, 0.8, 8), (color, 0.4, 0)],
            [(rotate, 0.4, 9), (equalize, 0.6, None)],
            [(equalize, 0.8, None)],
            [(invert, 0.6, None), (equalize, 1.0, None)],
            [(color, 0.6, 4), (contrast, 1.0, 8)],
            [(rotate, 0.8, 8), (color, 1.0, 2)],
            [(color, 0.8, 8), (solarize, 0.8, 7)],
            [(sharpness, 0.4, 7), (invert, 0.6, None)],
            [(shear_x, 0.6, 5), (equalize, 1.0, None)],
            [(color, 0.4, 0), (equalize, 0.6, None)],
            [(equalize, 0.4, None), (solarize, 0.2, 4)],
            [(solarize, 0.6, 5), (auto_contrast, 0.6, None)],
            [(invert, 0.6, None), (equalize, 1.0, None)],
            [(color, 0.6, 4), (contrast, 1.0, 8)],
            [(equalize, 0.8, None), (equalize, 0.6, None)],
        ],
    )
