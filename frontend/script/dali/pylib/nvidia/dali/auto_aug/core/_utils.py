# Helpers the three schemes share (nvidia.dali.auto_aug.core._utils of DALI 2.4, as dalic
# provides it): the translation augmentations for absolute or shape-relative offsets, and
# select with a clearer error when `shape` is missing.
from nvidia.dali.auto_aug.core._select import select
from nvidia.dali.auto_aug.core._args import MissingArgException
import nvidia.dali.auto_aug.augmentations as a


def max_translate_hw(max_translate):
    if isinstance(max_translate, (tuple, list)):
        height, width = max_translate
        return height, width
    return max_translate, max_translate


def parse_validate_offset(
    use_shape,
    max_translate_abs=None,
    max_translate_rel=None,
    default_translate_abs=250,
    default_translate_rel=1.0,
):
    if not isinstance(use_shape, bool):
        raise Exception(
            f"The `use_shape` is a flag that should be set to either True or False, "
            f"got {use_shape}."
        )
    if use_shape:
        if max_translate_abs is not None:
            raise Exception(
                "The argument `max_translate_abs` cannot be used with image shapes. "
                "You may use `max_translate_rel` instead."
            )
        if max_translate_rel is None:
            max_translate_rel = default_translate_rel
        return max_translate_hw(max_translate_rel)
    if max_translate_rel is not None:
        raise Exception(
            "The argument `max_translate_rel` cannot be used without image shapes. "
            "You may use `max_translate_abs` instead."
        )
    if max_translate_abs is None:
        max_translate_abs = default_translate_abs
    return max_translate_hw(max_translate_abs)


def get_translations(
    use_shape,
    default_translate_abs,
    default_translate_rel,
    max_translate_abs=None,
    max_translate_rel=None,
):
    max_height, max_width = parse_validate_offset(
        use_shape,
        max_translate_abs=max_translate_abs,
        max_translate_rel=max_translate_rel,
        default_translate_abs=default_translate_abs,
        default_translate_rel=default_translate_rel,
    )
    if use_shape:
        x, y = a.translate_x, a.translate_y
    else:
        x, y = a.translate_x_no_shape, a.translate_y_no_shape
    return [x.augmentation((0, max_width), True), y.augmentation((0, max_height), True)]


def pretty_select(augmentations, aug_ids, op_kwargs, auto_aug_name, ref_suite_name):
    try:
        return select(augmentations, aug_ids, **op_kwargs)
    except MissingArgException as e:
        if e.missing_args != ["shape"] or (
            e.augmentation.op is not a.translate_x.op and e.augmentation.op is not a.translate_y.op
        ):
            raise
        raise Exception(
            f"The augmentation `{e.augmentation.name}` requires `shape` argument that "
            f"describes image shape (in HWC layout). Please provide it as `shape` argument "
            f"to `{auto_aug_name}` call. You can get the image shape from encoded "
            f"images with `fn.peek_image_shape`. Alternatively, you can use "
            f"`translate_x_no_shape`/`translate_y_no_shape` that does not rely on image "
            f"shape, but uses offset from fixed range: for reference see `{ref_suite_name}` "
            f"and its `use_shape` argument. "
        )
