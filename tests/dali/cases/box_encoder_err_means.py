# oracle: error=means size must be a list of 4 values.
# box_encoder: 4 means.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    labels = fn.constant(idata=[1], shape=[1], dtype=types.INT32)
    return tuple(fn.box_encoder(boxes, labels, anchors=[0.0, 0.0, 1.0, 1.0], means=[0.0, 0.0]))


pipe = oracle_pipe()
