# random_bbox_crop: box layouts (permuted xyXY, xyWH, ltrb=False), 3-D boxes with one and three
# aspect ratio ranges (one fixed), a fixed crop_shape with per-sample input_shape (absolute
# anchor and shape) in the HW shape_layout, labels with a second dimension.
from nvidia.dali import pipeline_def, fn, types


def rbc_boxes(ndim, n):
    lo = fn.random.uniform(range=[0.0, 0.5], shape=[n, ndim])
    ext = fn.random.uniform(range=[0.05, 0.45], shape=[n, ndim])
    m = [0.0] * (4 * ndim * ndim)
    for d in range(ndim):
        m[d * 2 * ndim + d] = 1.0
        m[(ndim + d) * 2 * ndim + d] = 1.0
        m[(ndim + d) * 2 * ndim + ndim + d] = 1.0
    start_end = fn.coord_transform(fn.cat(lo, ext, axis=1), M=m)
    return start_end, fn.cat(lo, ext, axis=1)


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=71)
def oracle_pipe():
    se, ss = rbc_boxes(2, 6)
    yx = fn.coord_transform(se, M=[0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0])
    labels = fn.cast(fn.random.uniform(range=[0, 9], shape=[6, 2]), dtype=types.INT32)
    r0 = fn.random_bbox_crop(yx, labels, bbox_layout="yxYX", thresholds=[0.1, 0.3],
                             scaling=[0.3, 1.0], aspect_ratio=[0.5, 2.0], num_attempts=4)
    r1 = fn.random_bbox_crop(ss, bbox_layout="xyWH", thresholds=[0.2], scaling=[0.4, 1.0],
                             aspect_ratio=[0.5, 2.0], num_attempts=8)
    r2 = fn.random_bbox_crop(ss, ltrb=False, thresholds=[0.0, 0.4], scaling=[0.5, 1.0],
                             aspect_ratio=[1.5, 1.5])
    se3, _ = rbc_boxes(3, 5)
    r3 = fn.random_bbox_crop(se3, thresholds=[0.05, 0.2], scaling=[0.4, 1.0],
                             aspect_ratio=[0.5, 2.0], num_attempts=6, total_num_attempts=30)
    r4 = fn.random_bbox_crop(se3, thresholds=[0.0], scaling=[0.3, 0.9],
                             aspect_ratio=[0.5, 2.0, 1.0, 1.0, 0.25, 4.0], num_attempts=3,
                             total_num_attempts=20)
    ishape = fn.cast(fn.random.uniform(range=[300, 500], shape=[2]), dtype=types.INT32)
    r5 = fn.random_bbox_crop(se, labels, crop_shape=[200, 250], input_shape=ishape,
                             shape_layout="HW", thresholds=[0.0, 0.1], num_attempts=3,
                             total_num_attempts=12)
    r6 = fn.random_bbox_crop(se, crop_shape=[100, 120], input_shape=[300, 240],
                             allow_no_crop=False, thresholds=[0.0])
    return tuple(r0) + tuple(r1) + tuple(r2) + tuple(r3) + tuple(r4) + tuple(r5) + tuple(r6)


pipe = oracle_pipe()
