# The Augmentation wrapper and signed magnitude bins (nvidia.dali.auto_aug.core._augmentation
# of DALI 2.4, as dalic provides it). An augmentation turns a magnitude bin into its
# parameter: the parameters of all bins are computed once, stored in a Constant and indexed
# with the bins of the batch, so one graph serves every magnitude.
#
# Inside conditionals, the order in which this code reads data nodes decides where DALI
# splits them and the instance names of every later operator; the reads below keep DALI's
# order (the samples first, then the bin, then the parameters).
import warnings

import numpy as np

from nvidia.dali import fn, types
from nvidia.dali.data_node import DataNode as _DataNode
from nvidia.dali.auto_aug.core._args import (
    filter_extra_accepted_kwargs,
    get_missing_kwargs,
    get_num_positional_args,
    MissingArgException,
)


class _UndefinedParam:
    """Default of Augmentation.augmentation's arguments: "keep what the augmentation has"."""


class _SignedMagnitudeBin:
    def __init__(self, magnitude_bin, random_sign, signed_magnitude_idx):
        self._magnitude_bin = magnitude_bin
        self._random_sign = random_sign
        self._signed_magnitude_idx = signed_magnitude_idx

    def __getitem__(self, idx):
        # one sign per stage of a sequence: index the bins, signs and signed indices together
        if isinstance(self._magnitude_bin, int):
            magnitude_bin = self._magnitude_bin
        else:
            magnitude_bin = self._magnitude_bin[idx]
        cls = self.__class__
        return cls(magnitude_bin, self._random_sign[idx], self._signed_magnitude_idx[idx])

    @classmethod
    def create_from_bin(cls, magnitude_bin, random_sign=None, seed=None, shape=None):
        if not isinstance(magnitude_bin, (int, _DataNode)):
            raise Exception(
                f"The `magnitude_bin` must be an int or _DataNode (output of DALI op "
                f"or `types.Constant`) representing batch of ints from "
                f"`[0..num_magnitude_bins-1]` range. Got {magnitude_bin} instead."
            )
        if random_sign is not None and (seed is not None or shape is not None):
            raise Exception(
                "The `random_sign` cannot be specified together with neither `seed` nor `shape`."
            )
        if random_sign is None:
            random_sign = fn.random.uniform(
                values=[0, 1], dtype=types.INT32, seed=seed, shape=shape
            )
        # computed here, at the level the bin was made at, not in the branch that reads it
        signed_magnitude_idx = 2 * magnitude_bin + random_sign
        return cls(magnitude_bin, random_sign, signed_magnitude_idx)

    @staticmethod
    def _remap_to_signed_magnitudes(magnitudes):
        # bin b becomes 2b (the magnitude) and 2b + 1 (the magnitude negated)
        signed = []
        for magnitude in magnitudes:
            signed.append(magnitude)
            signed.append(-magnitude)
        return np.array(signed)

    @property
    def bin(self):
        return self._magnitude_bin

    @property
    def random_sign(self):
        return self._random_sign

    @property
    def signed_magnitude_idx(self):
        return self._signed_magnitude_idx


def signed_bin(magnitude_bin, random_sign=None, seed=None, shape=None):
    """The magnitude bin with a random sign per sample, for augmentations declared with
    `randomly_negate=True` (made before a conditional split, once for the whole batch)."""
    return _SignedMagnitudeBin.create_from_bin(magnitude_bin, random_sign, seed, shape)


class Augmentation:
    def __init__(
        self,
        op,
        mag_range=None,
        randomly_negate=None,
        mag_to_param=None,
        param_device=None,
        name=None,
    ):
        self._op = op
        self._mag_range = mag_range
        self._randomly_negate = randomly_negate
        self._mag_to_param = mag_to_param
        self._param_device = param_device
        self._name = name
        self._validate_op_sig()

    def __repr__(self):
        shown = [repr(self.op)]
        for key, value in self._get_config().items():
            if value is not None:
                shown.append(f"{key}={repr(value)}")
        return f"Augmentation({', '.join(shown)})"

    def __call__(self, data, *, magnitude_bin=None, num_magnitude_bins=None, **kwargs):
        num_mandatory_positional_args = 2
        param_device = self._infer_param_device(data)
        params = self._get_param(magnitude_bin, num_magnitude_bins, param_device)
        op_kwargs = filter_extra_accepted_kwargs(self.op, kwargs, num_mandatory_positional_args)
        missing_args = get_missing_kwargs(self.op, kwargs, num_mandatory_positional_args)
        if missing_args:
            raise MissingArgException(
                f"The augmentation `{self.name}` requires following named argument(s) "
                f"which were not provided to the call: {', '.join(missing_args)}. "
                f"Please make sure to pass the required arguments when calling the "
                f"augmentation.",
                augmentation=self,
                missing_args=missing_args,
            )
        return self.op(data, params, **op_kwargs)

    @property
    def op(self):
        return self._op

    @property
    def mag_range(self):
        return self._mag_range

    @property
    def mag_to_param(self):
        if self._mag_to_param is None:
            return _np_wrap
        return self._mag_to_param

    @property
    def randomly_negate(self):
        return bool(self._randomly_negate)

    @property
    def param_device(self):
        return self._param_device or "cpu"

    @property
    def name(self):
        return self._name or self.op.__name__

    def augmentation(
        self,
        mag_range=_UndefinedParam,
        randomly_negate=_UndefinedParam,
        mag_to_param=_UndefinedParam,
        param_device=_UndefinedParam,
        name=_UndefinedParam,
        augmentation_cls=None,
    ):
        """A new augmentation of the same function; the settings not given are kept."""
        cls = augmentation_cls or self.__class__
        config = self._get_config()
        updates = {
            "mag_range": mag_range,
            "randomly_negate": randomly_negate,
            "mag_to_param": mag_to_param,
            "param_device": param_device,
            "name": name,
        }
        for key, value in updates.items():
            if value is not _UndefinedParam:
                config[key] = value
        return cls(self.op, **config)

    def _get_config(self):
        return {
            "mag_range": self._mag_range,
            "mag_to_param": self._mag_to_param,
            "randomly_negate": self._randomly_negate,
            "param_device": self._param_device,
            "name": self._name,
        }

    def _infer_param_device(self, sample):
        if self.param_device != "auto":
            return self.param_device
        return sample.device or "cpu"

    def _has_custom_magnitudes(self):
        return isinstance(self.mag_range, np.ndarray)

    def _map_mag_to_param(self, magnitude):
        param = self.mag_to_param(magnitude)
        if _contains_data_node(param):
            raise Exception(
                f"The `mag_to_param` callback of `{self.name}` augmentation returned `DataNode`, "
                f"i.e. an output of DALI pipelined operator, which is not supported there. "
                f"Instead, the `mag_to_param` callback must return parameter that is `np.ndarray` "
                f"or is directly convertible to `np.ndarray`, so that the all parameters can "
                f"be precomputed and reused across iterations.\n\n"
                f"Error in augmentation: {self}."
            )
        return np.array(param)

    def _map_mags_to_params(self, magnitudes):
        params = [self._map_mag_to_param(magnitude) for magnitude in magnitudes]
        if len(params) >= 2:
            first = params[0]
            for i in range(len(params)):
                param = params[i]
                if param.shape != first.shape or param.dtype != first.dtype:
                    raise Exception(
                        f"The `mag_to_param` callback of `{self.name}` augmentation must "
                        f"return the arrays of the same type and shape for different "
                        f"magnitudes. Got param of shape {first.shape} and {first.dtype} type "
                        f"for magnitude {magnitudes[0]}, but for magnitude {magnitudes[i]} "
                        f"the returned array has shape {param.shape} and type "
                        f"{param.dtype}.\n\nError in augmentation: {self}."
                    )
        return np.array(params)

    def _get_magnitudes(self, num_magnitude_bins):
        mag_range = self.mag_range
        if mag_range is None:
            return None
        if self._has_custom_magnitudes():
            if num_magnitude_bins is not None and len(mag_range) != num_magnitude_bins:
                raise Exception(
                    f"The augmentation `{self.name}` has nd.array of length {len(mag_range)} "
                    f"specified as the `mag_range`. However, the `num_magnitude_bins` "
                    f"passed to the call is {num_magnitude_bins}."
                )
            return mag_range
        if num_magnitude_bins is None:
            raise Exception(
                f"The `num_magnitude_bins` argument is missing in the call of "
                f"the `{self.name}` augmentation. Please specify the `num_magnitude_bins` "
                f"along with the samples and magnitude_bin."
                f"\nError in augmentation: {self}."
            )
        if not isinstance(mag_range, (tuple, list)) or len(mag_range) != 2:
            raise Exception(
                f"The `mag_range` must be a tuple of (low, high) ends of magnitude range or "
                f"nd.array of explicitly defined magnitudes. Got `{self.mag_range}` for "
                f"augmentation `{self.name}`."
            )
        return np.linspace(mag_range[0], mag_range[1], num_magnitude_bins, dtype=np.float32)

    def _get_param(self, magnitude_bin, num_magnitude_bins, param_device):
        magnitudes = self._get_magnitudes(num_magnitude_bins)
        if magnitudes is None:
            return None
        if magnitude_bin is None:
            raise Exception(
                f"The augmentation `{self.name}` has `mag_range` specified, "
                f"so when called, it requires `magnitude_bin` parameter to select "
                f"the magnitude from the `mag_range`.\nError in augmentation: {self}."
            )
        if self.randomly_negate and not isinstance(magnitude_bin, _SignedMagnitudeBin):
            magnitude_bin = signed_bin(magnitude_bin)
            warnings.warn(
                f"The augmentation `{self.name}` was declared with `random_negate=True`, "
                f"but unsigned `magnitude_bin` was passed to the augmentation call. "
                f"The augmentation will randomly negate the magnitudes manually. "
                f"However, for better performance, if you conditionally split batch "
                f"between multiple augmentations, it is better to call "
                f"`signed_magnitude_bin = signed_bin(magnitude_bin)` before the split "
                f"and pass the signed bins instead.",
                Warning,
            )
        if self.randomly_negate:
            if isinstance(magnitude_bin.bin, int):
                # one magnitude for every sample: only its sign varies
                magnitudes = [magnitudes[magnitude_bin.bin]]
                param_idx = magnitude_bin.random_sign
            else:
                param_idx = magnitude_bin.signed_magnitude_idx
            magnitudes = _SignedMagnitudeBin._remap_to_signed_magnitudes(magnitudes)
            params = self._map_mags_to_params(magnitudes)
            params = types.Constant(params, device=param_device)
            return params[param_idx]
        if isinstance(magnitude_bin, _SignedMagnitudeBin):
            bin_idx = magnitude_bin.bin  # the sign is for other augmentations of the suite
        else:
            bin_idx = magnitude_bin
        if isinstance(bin_idx, int):
            param = self._map_mag_to_param(magnitudes[bin_idx])
            return types.Constant(param, device=param_device)
        params = self._map_mags_to_params(magnitudes)
        params = types.Constant(params, device=param_device)
        return params[bin_idx]

    def _validate_op_sig(self):
        num_positional = get_num_positional_args(self.op)
        if num_positional <= 1:
            raise Exception(
                f"The {self.op} accepts {num_positional} positional argument(s), "
                f"but the functions decorated with `@augmentation` must accept at least two "
                f"positional arguments: the samples and parameters.\nError in: {self}."
            )


def _np_wrap(mag):
    return np.array(mag)


def _contains_data_node(obj):
    if isinstance(obj, (tuple, list)):
        for item in obj:
            if _contains_data_node(item):
                return True
        return False
    return isinstance(obj, _DataNode)
