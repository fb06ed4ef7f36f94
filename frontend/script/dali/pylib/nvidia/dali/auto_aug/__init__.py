# nvidia.dali.auto_aug, as dalic provides it: automatic augmentations (AutoAugment,
# RandAugment, TrivialAugment) written in the Python subset dalic runs, building their graphs
# from the same DALI operators as DALI 2.4's package. Submodules: core, augmentations,
# auto_augment, rand_augment, trivial_augment.
