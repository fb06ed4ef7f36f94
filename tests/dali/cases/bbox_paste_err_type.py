# oracle: dali_error=Calling type does not match buffer data type
# oracle: dalic_error=Bounding box in wrong format
# bbox_paste: boxes must be float.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    boxes = fn.reshape(fn.crop(gray, crop=[1, 8]), shape=[2, 4])
    return fn.bbox_paste(boxes, ratio=2.0)


pipe = oracle_pipe()
