# oracle: error=Bounding box tensor size must be a multiple of 4
# bbox_paste: 4 values per box.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    boxes = fn.reshape(fn.crop(gray, crop=[1, 5]), shape=[5])
    return fn.bbox_paste(fn.cast(boxes, dtype=types.FLOAT), ratio=2.0)


pipe = oracle_pipe()
