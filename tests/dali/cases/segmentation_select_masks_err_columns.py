# oracle: error=``polygons`` is expected to contain 2D tensors with 3 columns: ``mask_id, start_idx, end_idx``. Got 2 columns.
# segmentation.select_masks: columns.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    ids = fn.constant(idata=[0], dtype=types.INT32)
    poly = fn.constant(idata=[0, 3, 1, 6], shape=[2, 2], dtype=types.INT32)
    vert = fn.constant(fdata=[float(k) for k in range(12)], shape=[6, 2])
    return tuple(fn.segmentation.select_masks(ids, poly, vert))


pipe = oracle_pipe()
