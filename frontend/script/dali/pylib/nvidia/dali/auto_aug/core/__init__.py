# nvidia.dali.auto_aug.core of DALI 2.4, as dalic provides it: the building blocks of custom
# automatic augmentations.
from nvidia.dali.auto_aug.core._augmentation import signed_bin, Augmentation as _Augmentation
from nvidia.dali.auto_aug.core.decorator import augmentation
from nvidia.dali.auto_aug.core._select import select
from nvidia.dali.auto_aug.core.policy import Policy

__all__ = ("signed_bin", "augmentation", "select", "Policy", "_Augmentation")
