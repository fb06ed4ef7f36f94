# oracle: error=``mask_ids`` input is expected to be int32
# segmentation.select_masks: ids_type.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    ids = fn.constant(idata=[0], dtype=types.INT32)
    poly = fn.constant(idata=[0, 0, 3], shape=[1, 3], dtype=types.INT32)
    vert = fn.constant(fdata=[float(k) for k in range(12)], shape=[6, 2])
    ids = fn.cast(ids, dtype=types.INT64)
    return tuple(fn.segmentation.select_masks(ids, poly, vert))


pipe = oracle_pipe()
