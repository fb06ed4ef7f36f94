# random_bbox_crop: samples without boxes take their first window, whatever the threshold
# (DALI 2.4), with "no crop" among the options and without.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.0], shape=[0, 4])
    r0 = fn.random_bbox_crop(boxes, scaling=[0.1, 0.2], thresholds=[0.5, 0.0], num_attempts=3)
    r1 = fn.random_bbox_crop(boxes, scaling=[0.1, 0.6], thresholds=[0.9], allow_no_crop=False,
                             aspect_ratio=[0.5, 2.0])
    return tuple(r0) + tuple(r1)


pipe = oracle_pipe()
