# The operators behind conditionals, used by hand: split the batch by a predicate,
# process only the "true" part, merge back in the original order.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=8, num_threads=1, device_id=None, seed=11)
def manual_split_merge_pipeline():
    value = fn.random.uniform(range=[0.0, 1.0])
    pred = fn.random.coin_flip(dtype=types.DALIDataType.BOOL)
    true_part, false_part = fn._conditional.split(value, predicate=pred)
    true_part = true_part + 10.0
    merged = fn._conditional.merge(true_part, false_part, predicate=pred)
    negated = fn._conditional.not_(pred)
    validated = fn._conditional.validate_logical(pred, expression_name="or", expression_side="right")
    return merged, value, pred, negated, validated


pipe = manual_split_merge_pipeline()
