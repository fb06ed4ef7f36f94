# oracle: error=Unexpected number of dimensions 4
# coord_flip: at most 3 coordinates.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    pts = fn.reshape(fn.crop(gray, crop=[1, 8]), shape=[2, 4])
    return fn.coord_flip(fn.cast(pts, dtype=types.FLOAT))


pipe = oracle_pipe()
