# oracle: error=The combined ``MT`` argument cannot be used together with separate ``M``, ``T`` arguments.
# coord_transform: MT excludes M and T.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    pts = fn.reshape(fn.crop(gray, crop=[1, 4]), shape=[2, 2])
    return fn.coord_transform(pts, MT=[1.0, 0.0, 0.0, 0.0, 1.0, 0.0], M=[1.0])


pipe = oracle_pipe()
