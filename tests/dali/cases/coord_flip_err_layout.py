# oracle: error=Dimension "z" not found in the layout
# coord_flip: the layout must name every coordinate.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    pts = fn.reshape(fn.crop(gray, crop=[1, 6]), shape=[2, 3])
    return fn.coord_flip(fn.cast(pts, dtype=types.FLOAT), layout="xy")


pipe = oracle_pipe()
