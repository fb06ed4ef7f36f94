# oracle: error=Input is expected to be float
# coord_flip: float points only.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    pts = fn.reshape(fn.crop(gray, crop=[1, 4]), shape=[2, 2])
    return fn.coord_flip(pts)


pipe = oracle_pipe()
