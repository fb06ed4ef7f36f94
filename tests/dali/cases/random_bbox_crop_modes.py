# random_bbox_crop: random boxes per sample (2-D, xyXY), labels passed through, IoU thresholds
# with several attempts, a scaling and aspect ratio range, a fixed aspect ratio, the "overlap"
# metric with any-box acceptance, a prune threshold, total_num_attempts falling back to the
# best window, box indices output.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=23)
def oracle_pipe():
    lo = fn.random.uniform(range=[0.0, 0.6], shape=[7, 2])
    ext = fn.random.uniform(range=[0.02, 0.4], shape=[7, 2])
    # [x, y, x + w, y + h] without arithmetic operators
    boxes = fn.coord_transform(fn.cat(lo, ext, axis=1),
                               M=[1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1])
    labels = fn.cast(fn.random.uniform(range=[0, 80], shape=[7]), dtype=types.INT32)
    a0, s0, b0, l0 = fn.random_bbox_crop(boxes, labels, thresholds=[0.1, 0.3, 0.5, 0.7, 0.9],
                                         scaling=[0.3, 1.0], aspect_ratio=[0.5, 2.0],
                                         num_attempts=10, total_num_attempts=50)
    a1, s1, b1 = fn.random_bbox_crop(boxes, aspect_ratio=[0.75, 0.75], scaling=[0.2, 0.9],
                                     thresholds=[0.0], allow_no_crop=False)
    a2, s2, b2, i2 = fn.random_bbox_crop(boxes, thresholds=[0.5, 0.8],
                                         threshold_type="overlap",
                                         all_boxes_above_threshold=False, scaling=[0.3, 0.8],
                                         aspect_ratio=[0.5, 1.5], num_attempts=5,
                                         output_bbox_indices=True, bbox_prune_threshold=0.4)
    a3, s3, b3 = fn.random_bbox_crop(boxes, thresholds=[0.99], allow_no_crop=False,
                                     scaling=[0.1, 0.3], total_num_attempts=7)
    return a0, s0, b0, l0, a1, s1, b1, a2, s2, b2, i2, a3, s3, b3


pipe = oracle_pipe()
