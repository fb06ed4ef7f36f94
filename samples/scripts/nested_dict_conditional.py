# Both branches of a conditional assign a dictionary holding a tuple; dalic merges the
# nested values one by one (keys in sorted order), and the constants returned by a branch
# become Constant operators first.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=6, num_threads=1, device_id=None, seed=2, enable_conditionals=True)
def nested_pipeline():
    x = fn.random.uniform(range=[0.0, 1.0])
    pred = fn.random.coin_flip(dtype=types.BOOL)
    if pred:
        out = {"value": x * 100, "pair": (x, 1.0)}
    else:
        out = {"value": x, "pair": (x + 1, 2.0)}
    return out["value"], out["pair"][0], out["pair"][1], pred


pipe = nested_pipeline()
