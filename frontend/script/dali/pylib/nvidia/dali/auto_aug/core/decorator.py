# The @augmentation decorator (nvidia.dali.auto_aug.core.decorator of DALI 2.4, as dalic
# provides it): wraps a function of (samples, parameter, ...) built from DALI operators.
from nvidia.dali.auto_aug.core._augmentation import Augmentation


def augmentation(
    function=None,
    *,
    mag_range=None,
    randomly_negate=None,
    mag_to_param=None,
    param_device=None,
    name=None,
    augmentation_cls=None,
):
    def decorator(function):
        cls = augmentation_cls or Augmentation
        return cls(
            function,
            mag_range=mag_range,
            mag_to_param=mag_to_param,
            randomly_negate=randomly_negate,
            param_device=param_device,
            name=name,
        )

    if function is None:
        return decorator
    if not callable(function):
        raise Exception(
            f"The `@augmentation` decorator was used to decorate the object that "
            f"is not callable: {function}."
        )
    if isinstance(function, Augmentation):
        raise Exception(
            f"The `@augmentation` was applied to already decorated Augmentation. "
            f"Please call `{function.name}.augmentation` method to modify the augmentation "
            f"setup or apply the decorator to the underlying `{function.name}.op` directly.\n"
            f"Error in augmentation: {function}."
        )
    return decorator(function)
