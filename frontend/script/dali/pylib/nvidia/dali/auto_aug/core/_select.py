# select: each sample through the augmentation its index names (nvidia.dali.auto_aug.core.
# _select of DALI 2.4, as dalic provides it). The list is halved with a conditional on the
# index until one augmentation is left, as DALI does, so the splits and merges of the graph
# are DALI's.


def split_samples_among_ops(op_range_lo, op_range_hi, ops, selected_op_idx, op_args, op_kwargs):
    if op_range_lo == op_range_hi:
        return ops[op_range_lo](*op_args, **op_kwargs)
    mid = (op_range_lo + op_range_hi) // 2
    if selected_op_idx <= mid:
        return split_samples_among_ops(op_range_lo, mid, ops, selected_op_idx, op_args, op_kwargs)
    else:
        return split_samples_among_ops(
            mid + 1, op_range_hi, ops, selected_op_idx, op_args, op_kwargs
        )


def select(ops, selected_op_idx, *op_args, **op_kwargs):
    """Applies ops[selected_op_idx] to each sample: `selected_op_idx` is a batch of indices
    into `ops`; data nodes among the arguments are split with the samples."""
    return split_samples_among_ops(0, len(ops) - 1, ops, selected_op_idx, op_args, op_kwargs)
