# Indexing and slicing DataNodes as with NumPy arrays: integer indices drop a dim,
# slices keep it (clamped, negative bounds and steps allowed), indices may come from
# another DataNode per sample, and dali.newaxis inserts dims. Each subscript becomes a
# TensorSubscript (or SubscriptDimCheck) operator, each new axis an ExpandDims.
import nvidia.dali as dali
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=42)
def indexing_pipeline():
    noise = fn.random.uniform(range=[0.0, 255.0], shape=[4, 6, 3])
    image = fn.reshape(noise, layout="HWC")  # names the dims; no copy
    row = fn.random.coin_flip()  # 0 or 1 per sample
    first_row = image[0]  # (6, 3)
    last_channel = image[:, :, -1]  # (4, 6)
    every_other_column = image[:, ::2]  # (4, 3, 3)
    flipped = image[::-1]  # rows in reverse order
    chosen_row = image[row]  # a different row per sample
    batched = image[dali.newaxis("N")]  # (1, 4, 6, 3)
    return first_row, last_channel, every_other_column, flipped, chosen_row, batched


pipe = indexing_pipeline()
