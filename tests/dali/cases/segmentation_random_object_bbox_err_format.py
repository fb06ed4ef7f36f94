# segmentation.random_object_bbox refuses an unknown format, as DALI does.
# oracle: iterations=1
# oracle: error=Invalid output format
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    labels = fn.cast(fn.crop(fn.decoders.image(jpegs), crop=(8, 8)) / 64, dtype=types.UINT8)
    out = fn.segmentation.random_object_bbox(labels, format="xywh")
    return tuple(out) if isinstance(out, list) else out


pipe = oracle_pipe()
