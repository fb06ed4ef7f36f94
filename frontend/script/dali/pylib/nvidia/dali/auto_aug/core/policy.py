# Policy: the sub-policies of AutoAugment (nvidia.dali.auto_aug.core.policy of DALI 2.4, as
# dalic provides it) — sequences of (augmentation, probability, magnitude bin).
import warnings

from nvidia.dali.auto_aug.core._augmentation import Augmentation


def _unique(items):
    # distinct objects in order of first appearance (augmentations compare by identity)
    seen = []
    for item in items:
        if not any(item is s for s in seen):
            seen.append(item)
    return seen


class Policy:
    def __init__(self, name, num_magnitude_bins, sub_policies):
        self.name = name
        self.num_magnitude_bins = num_magnitude_bins
        if not isinstance(num_magnitude_bins, int) or num_magnitude_bins < 1:
            raise Exception(
                f"The `num_magnitude_bins` must be a positive integer, got {num_magnitude_bins}."
            )
        if not isinstance(sub_policies, (list, tuple)):
            raise Exception(
                f"The `sub_policies` must be a list or tuple of sub policies, "
                f"got {type(sub_policies)}."
            )
        for sub_policy in sub_policies:
            if not isinstance(sub_policy, (list, tuple)):
                raise Exception(f"Each sub policy must be a list or tuple, got {sub_policy}.")
            for op_desc in sub_policy:
                self._check_stage(name, op_desc)
        self.sub_policies = _sub_policy_with_unique_names(sub_policies)

    def _check_stage(self, name, op_desc):
        if not isinstance(op_desc, (list, tuple)) or len(op_desc) != 3:
            raise Exception(
                f"Each operation in sub policy must be specified as a triple: "
                f"(augmentation, probability, magnitude). Got {op_desc}."
            )
        aug, p, mag = op_desc
        if not isinstance(aug, Augmentation):
            raise Exception(
                f"Each augmentation in sub policies must be an instance of "
                f"Augmentation. Got `{aug}`. Did you forget to use `@augmentation` "
                f"decorator?"
            )
        if not isinstance(p, (float, int)) or not 0 <= p <= 1:
            raise Exception(
                f"Probability of applying the augmentation must be a number from "
                f"`[0, 1]` range. Got `{p}` for augmentation `{aug.name}`."
            )
        if p == 0:
            warnings.warn(
                f"The augmentation `{aug.name}` in policy `{name}` is used with "
                f"probability 0 in one of the sub-policies."
            )
        if mag is None:
            if aug.mag_range is not None:
                raise Exception(
                    f"The augmentation `{aug.name}` has `mag_range` specified, so the "
                    f"magnitude bin is required. However, got `None` in the policy "
                    f"`{name}`."
                )
            return
        if aug.mag_range is None:
            warnings.warn(
                f"The magnitude bin `{mag}` for augmentation `{aug.name}` in policy "
                f"`{name}` will be ignored. The augmentation does not accept "
                f"magnitudes (as it has no `mag_range` specified). You can specify "
                f"`None` instead of `{mag}` to silence this warning."
            )
        if not isinstance(mag, int) or not 0 <= mag < self.num_magnitude_bins:
            raise Exception(
                f"Magnitude of the augmentation must be an integer from "
                f"`[0, {self.num_magnitude_bins - 1}]` range. "
                f"Got `{mag}` for augmentation `{aug.name}`."
            )

    @property
    def augmentations(self):
        augments = _unique([aug for sub_policy in self.sub_policies for aug, p, mag in sub_policy])
        augments = sorted(augments, key=lambda aug: aug.name)
        return {augment.name: augment for augment in augments}

    def __repr__(self):
        sub_policies_repr = ",\n\t".join(
            repr([(augment.name, p, mag) for augment, p, mag in sub_policy])
            for sub_policy in self.sub_policies
        )
        sub_policies_repr_sep = "" if not sub_policies_repr else "\n\t"
        augmentations_repr = ",\n\t".join(
            f"'{name}': {repr(augment)}" for name, augment in self.augmentations.items()
        )
        augmentations_repr_sep = "" if not augmentations_repr else "\n\t"
        return (
            f"Policy(name={repr(self.name)}, num_magnitude_bins={repr(self.num_magnitude_bins)}, "
            f"sub_policies=[{sub_policies_repr_sep}{sub_policies_repr}], "
            f"augmentations={{{augmentations_repr_sep}{augmentations_repr}}})"
        )


def _sub_policy_with_unique_names(sub_policies):
    """Augmentations of different objects but the same name get `i__name` names, numbered in
    order of first use, so that the policy reads unambiguously."""
    all_augments = [aug for sub_policy in sub_policies for aug, p, mag in sub_policy]
    augments = _unique(all_augments)
    names = []
    for aug in augments:
        if aug.name not in names:
            names.append(aug.name)
    if len(names) == len(augments):
        return tuple(tuple(sub_policy) for sub_policy in sub_policies)
    num_digits = len(str(len(augments) - 1))
    renamed = [
        aug.augmentation(name=f"{str(i).zfill(num_digits)}__{aug.name}")
        for i, aug in enumerate(augments)
    ]

    def rename(aug):
        for i in range(len(augments)):
            if augments[i] is aug:
                return renamed[i]

    return tuple(
        tuple((rename(aug), p, mag) for aug, p, mag in sub_policy) for sub_policy in sub_policies
    )
