# oracle: error=CoordTransform expects an input with at least 2 dimensions.
# coord_transform: points need a last dimension.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    pts = fn.reshape(fn.crop(gray, crop=[1, 4]), shape=[4])
    return fn.coord_transform(pts)


pipe = oracle_pipe()
