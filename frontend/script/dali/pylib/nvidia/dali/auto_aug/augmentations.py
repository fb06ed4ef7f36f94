# The standard augmentations of AutoAugment, RandAugment and TrivialAugmentWide
# (nvidia.dali.auto_aug.augmentations of DALI 2.4, as dalic provides it), each made of the
# DALI operators DALI uses for it, in the same order, so that the graph, its instance names
# and its outputs are DALI's. Decorated with `@augmentation`: called with the samples, a
# magnitude bin and the number of bins instead of the parameter (`mag_range`,
# `randomly_negate`, `mag_to_param`). `my_shear = shear_x.augmentation(mag_range=(0, 0.5))`
# makes a variant.
import numpy as np

from nvidia.dali import fn
from nvidia.dali import types
from nvidia.dali.auto_aug.core import augmentation


def warp_x_param(magnitude):
    return [magnitude, 0]


def warp_y_param(magnitude):
    return [0, magnitude]


def _warp(data, matrix, fill_value, interp_type):
    return fn.warp_affine(
        data, matrix=matrix, fill_value=fill_value, interp_type=interp_type, inverse_map=False
    )


@augmentation(mag_range=(0, 0.3), randomly_negate=True, mag_to_param=warp_x_param)
def shear_x(data, shear, fill_value=128, interp_type=None):
    mt = fn.transforms.shear(shear=shear)
    return _warp(data, mt, fill_value, interp_type)


@augmentation(mag_range=(0, 0.3), randomly_negate=True, mag_to_param=warp_y_param)
def shear_y(data, shear, fill_value=128, interp_type=None):
    mt = fn.transforms.shear(shear=shear)
    return _warp(data, mt, fill_value, interp_type)


@augmentation(mag_range=(0.0, 1.0), randomly_negate=True, mag_to_param=warp_x_param)
def translate_x(data, rel_offset, shape, fill_value=128, interp_type=None):
    offset = rel_offset * shape[1]  # shape is (H, W[, C])
    mt = fn.transforms.translation(offset=offset)
    return _warp(data, mt, fill_value, interp_type)


@augmentation(
    mag_range=(0, 250), randomly_negate=True, mag_to_param=warp_x_param, name="translate_x"
)
def translate_x_no_shape(data, offset, fill_value=128, interp_type=None):
    mt = fn.transforms.translation(offset=offset)
    return _warp(data, mt, fill_value, interp_type)


@augmentation(mag_range=(0.0, 1.0), randomly_negate=True, mag_to_param=warp_y_param)
def translate_y(data, rel_offset, shape, fill_value=128, interp_type=None):
    offset = rel_offset * shape[0]
    mt = fn.transforms.translation(offset=offset)
    return _warp(data, mt, fill_value, interp_type)


@augmentation(
    mag_range=(0, 250), randomly_negate=True, mag_to_param=warp_y_param, name="translate_y"
)
def translate_y_no_shape(data, offset, fill_value=128, interp_type=None):
    mt = fn.transforms.translation(offset=offset)
    return _warp(data, mt, fill_value, interp_type)


@augmentation(mag_range=(0, 30), randomly_negate=True)
def rotate(data, angle, fill_value=128, interp_type=None, rotate_keep_size=True):
    return fn.rotate(
        data, angle=angle, fill_value=fill_value, interp_type=interp_type, keep_size=rotate_keep_size
    )


def shift_enhance_range(magnitude):
    """Enhancements (brightness, contrast, color, sharpness) are neutral at 1: a magnitude
    from [0, 1], randomly negated, becomes 1 + magnitude."""
    return 1 + magnitude


@augmentation(mag_range=(0, 0.9), randomly_negate=True, mag_to_param=shift_enhance_range)
def brightness(data, parameter):
    return fn.brightness(data, brightness=parameter)


@augmentation(mag_range=(0, 0.9), randomly_negate=True, mag_to_param=shift_enhance_range)
def contrast(data, parameter):
    """PIL's contrast enhancement: around the mean of the luma-weighted channels (HWC or
    FHWC samples)."""
    mean = fn.reductions.mean(data, axis_names="HW", keep_dims=True)
    rgb_weights = types.Constant(np.array([0.299, 0.587, 0.114], dtype=np.float32))
    center = fn.reductions.sum(mean * rgb_weights, axis_names="C", keep_dims=True)
    # arithmetic rather than fn.contrast(contrast_center=...): a GPU center could not be a
    # named argument
    return fn.cast_like(center + (data - center) * parameter, data)


@augmentation(mag_range=(0, 0.9), randomly_negate=True, mag_to_param=shift_enhance_range)
def color(data, parameter):
    return fn.saturation(data, saturation=parameter)


_SMOOTH = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], dtype=np.float32) / 13
_IDENTITY = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], dtype=np.float32)


def sharpness_kernel(magnitude):
    # magnitude in [-1, 1]: blends PIL's smoothing filter out of (or into) the identity
    return -magnitude * _SMOOTH + (1 + magnitude) * _IDENTITY


def sharpness_kernel_shifted(magnitude):
    # magnitude in [0, 2]
    return sharpness_kernel(magnitude - 1)


@augmentation(
    mag_range=(0, 0.9), randomly_negate=True, mag_to_param=sharpness_kernel, param_device="auto"
)
def sharpness(data, kernel):
    """PIL's ImageEnhance.Sharpness, but for the 1-pixel border (PIL keeps the input there,
    the filter reflects it)."""
    return fn.experimental.filter(data, kernel)


def poster_mask_uint8(magnitude):
    # the number of bits kept, in [1, 8] (0 would blank the image: taken as 1, as the
    # RandAugment implementations do); the mask clears the others
    bits = int(round(float(magnitude)))
    if bits <= 0:
        bits = 1
    elif bits > 8:
        bits = 8
    cleared = (1 << (8 - bits)) - 1
    return np.array(255 ^ cleared, dtype=np.uint8)


@augmentation(mag_range=(0, 4), mag_to_param=poster_mask_uint8, param_device="auto")
def posterize(data, mask):
    return data & mask


@augmentation(mag_range=(256, 0), param_device="auto")
def solarize(data, threshold):
    sample_inv = types.Constant(255, dtype=types.UINT8) - data
    mask_unchanged = data < threshold
    mask_inverted = mask_unchanged ^ True
    return mask_unchanged * data + mask_inverted * sample_inv


def solarize_add_shift(shift):
    if shift >= 128:
        raise Exception("The solarize_add augmentation accepts shifts from 0 to 128")
    return np.uint8(shift)


@augmentation(mag_range=(0, 110), param_device="auto", mag_to_param=solarize_add_shift)
def solarize_add(data, shift):
    mask_shifted = data < types.Constant(128, dtype=types.UINT8)
    mask_id = mask_shifted ^ True
    sample_shifted = data + shift
    return mask_shifted * sample_shifted + mask_id * data


@augmentation
def invert(data, _):
    return types.Constant(255, dtype=types.UINT8) - data


@augmentation
def equalize(data, _):
    """OpenCV's histogram equalization (PIL maps the cumulative histogram slightly
    differently)."""
    return fn.experimental.equalize(data)


@augmentation
def auto_contrast(data, _):
    # per channel: stretch [min, max] to [0, 255]; a flat channel stays as it is
    lo = fn.reductions.min(data, axis_names="HW", keep_dims=True)
    hi = fn.reductions.max(data, axis_names="HW", keep_dims=True)
    diff = hi - lo
    mask_scale = diff > 0
    mask_id = mask_scale ^ True
    div_by = diff * mask_scale + types.Constant(255, dtype=types.UINT8) * mask_id
    scale = 255 / div_by
    scaled = (data - lo * mask_scale) * scale
    return fn.cast_like(scaled, data)


@augmentation
def identity(data, _):
    return data
