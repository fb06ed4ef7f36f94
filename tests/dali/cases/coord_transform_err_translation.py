# oracle: error=Argument "T" expects either a single value or a list of 2 elements. 3 given.
# coord_transform: T has one value or one per output component.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    pts = fn.reshape(fn.crop(gray, crop=[1, 4]), shape=[2, 2])
    return fn.coord_transform(pts, T=[1.0, 2.0, 3.0])


pipe = oracle_pipe()
