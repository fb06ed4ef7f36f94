# segmentation.select_masks: DALI's documented example (ids kept, and reindexed in mask_ids
# order), float and int16 vertices with 2 and 3 coordinates, a mask with two polygons (the
# last one stands), an empty polygon, an empty selection, per-sample mask ids.
from nvidia.dali import pipeline_def, fn, types

POLY = [0, 0, 3, 1, 3, 7, 2, 7, 10]
VERT = [k * 0.5 for k in range(20)]
POLY2 = [4, 0, 2, 7, 2, 5, 4, 5, 6, 9, 6, 6]
VERT3 = [k - 4 for k in range(18)]


def ids(values):
    return fn.constant(idata=values, shape=[len(values)], dtype=types.INT32)


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    poly = fn.constant(idata=POLY, shape=[3, 3], dtype=types.INT32)
    vert = fn.constant(fdata=VERT, shape=[10, 2])
    p0, v0 = fn.segmentation.select_masks(ids([1]), poly, vert)
    p1, v1 = fn.segmentation.select_masks(ids([2, 0]), poly, vert, reindex_masks=True)
    p2, v2 = fn.segmentation.select_masks(
        ids([9, 4, 7]), fn.constant(idata=POLY2, shape=[4, 3], dtype=types.INT32),
        fn.constant(idata=VERT3, shape=[6, 3], dtype=types.INT16))
    empty = fn.constant(idata=[0], shape=[0], dtype=types.INT32)
    p3, v3 = fn.segmentation.select_masks(empty, poly, vert)
    some = fn.cast(fn.random.uniform(range=[0, 2.4], shape=[1]), dtype=types.INT32)
    p4, v4 = fn.segmentation.select_masks(some, poly, vert, reindex_masks=True)
    return p0, v0, p1, v1, p2, v2, p3, v3, p4, v4


pipe = oracle_pipe()
