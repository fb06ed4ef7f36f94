# Debug mode (DALI's @pipeline_def(debug=True)): the pipeline function runs eagerly, so
# print() shows the values of every iteration:
#     dalic run samples/scripts/debug_print.py -n 2
from nvidia.dali import pipeline_def
import nvidia.dali.fn as fn
import nvidia.dali.types as types


@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=7, debug=True)
def debug_pipeline():
    x = fn.random.uniform(range=[0.0, 10.0], shape=[2])
    y = x * 2 + 1
    print("y:", y.get())
    flips = fn.random.coin_flip(dtype=types.INT32)
    print(flips)
    return y, flips


pipe = debug_pipeline()
