# oracle: error=ratio
# bbox_paste: ratio is required.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    boxes = fn.reshape(fn.crop(gray, crop=[1, 4]), shape=[1, 4])
    return fn.bbox_paste(fn.cast(boxes, dtype=types.FLOAT))


pipe = oracle_pipe()
