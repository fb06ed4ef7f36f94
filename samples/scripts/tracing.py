# Python conditions versus DataNode conditions. The pipeline function runs once, when the
# pipeline is created: an `if` on a Python value takes one branch right then, an `if` on a
# DataNode traces both branches (watch the prints) and picks per sample when it runs.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=8, enable_conditionals=True)
def tracing_pipeline(add_offset):
    value = fn.random.uniform(range=[0.0, 1.0])
    if add_offset:
        print("Python condition: only this branch is traced")
        value = value + 100
    else:
        print("Python condition: this branch is never traced")
    pred = fn.random.coin_flip(dtype=types.BOOL)
    if pred:
        print("DataNode condition: tracing the true branch with", value)
        result = value * 2
    else:
        print("DataNode condition: tracing the false branch with", value)
        result = -value
    return result, pred


pipe = tracing_pipeline(add_offset=True)
