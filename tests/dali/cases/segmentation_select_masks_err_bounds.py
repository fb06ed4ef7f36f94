# oracle: error=Vertex index range for mask id 1 [3, 9) is out of bounds. Expected to be within the range of available vertices [0, 6).
# segmentation.select_masks: bounds.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    ids = fn.constant(idata=[1], dtype=types.INT32)
    poly = fn.constant(idata=[0, 0, 3, 1, 3, 9], shape=[2, 3], dtype=types.INT32)
    vert = fn.constant(fdata=[float(k) for k in range(12)], shape=[6, 2])
    return tuple(fn.segmentation.select_masks(ids, poly, vert))


pipe = oracle_pipe()
