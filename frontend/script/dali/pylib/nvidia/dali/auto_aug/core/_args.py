# Which keyword arguments an augmentation's function takes and needs, read from its signature
# (nvidia.dali.auto_aug.core._args of DALI 2.4, as dalic provides it).
import inspect

_POSITIONAL_KINDS = [inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD]
_NAMED_KINDS = [inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY]


class MissingArgException(Exception):
    def __init__(self, message, augmentation, missing_args):
        super().__init__(message)
        self.augmentation = augmentation
        self.missing_args = missing_args


class UnusedArgException(Exception):
    def __init__(self, message, unused_args):
        super().__init__(message)
        self.unused_args = unused_args


def _parameters_past(fun, skip_positional):
    # the first `skip_positional` positional parameters are the samples and the parameter
    kept = []
    index = 0
    for param in inspect.signature(fun).parameters.values():
        if index >= skip_positional or param.kind not in _POSITIONAL_KINDS:
            kept.append(param)
        index += 1
    return kept


def filter_extra_accepted_kwargs(fun, kwargs, skip_positional=0):
    accepted = [p.name for p in _parameters_past(fun, skip_positional) if p.kind in _NAMED_KINDS]
    return {name: value for name, value in kwargs.items() if name in accepted}


def get_required_kwargs(fun, skip_positional=0):
    required = []
    for p in _parameters_past(fun, skip_positional):
        if p.kind in _NAMED_KINDS and p.default is inspect.Parameter.empty:
            required.append(p.name)
    return required


def get_num_positional_args(fun):
    count = 0
    for p in inspect.signature(fun).parameters.values():
        if p.kind in _POSITIONAL_KINDS:
            count += 1
    return count


def get_missing_kwargs(fun, kwargs, skip_positional=0):
    return [name for name in get_required_kwargs(fun, skip_positional) if name not in kwargs]


def filter_unused_args(augmentations, kwargs):
    used = []
    for aug in augmentations:
        for name in filter_extra_accepted_kwargs(aug.op, kwargs, 2):
            if name not in used:
                used.append(name)
    return [name for name in kwargs if name not in used]


def forbid_unused_kwargs(augmentations, kwargs, call_name):
    unused = filter_unused_args(augmentations, kwargs)
    if not unused:
        return
    if len(unused) == 1:
        subject, verb = "kwarg", "is"
    else:
        subject, verb = "kwargs", "are"
    raise UnusedArgException(
        f"The {call_name} got unexpected {subject}. "
        f"The {subject} `{', '.join(unused)}` {verb} not used by any of the augmentations.",
        unused_args=unused,
    )
