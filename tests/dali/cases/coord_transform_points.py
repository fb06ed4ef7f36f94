# coord_transform: pixel values of the sample photos as 2-D and 3-D points (uint8 and float),
# M/T lists, a fused MT, scalar M, projections to fewer components, per-sample M/T/MT argument
# inputs, and uint8 outputs rounded and saturated as DALI's ConvertSat.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types

JPEGS = ["cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg", "cat/chelsea_exif6.jpg",
         "coffee/coffee_422.jpg", "coffee/coffee_444.jpg", "space/rocket.jpg",
         "space/astronaut_444_progressive.jpg"]


def pixels(image, shape, x, dtype=None):
    """Pixel values of row 0 of a grey image from column x, reshaped to `shape`."""
    n = 1
    for e in shape:
        n *= e
    px = fn.reshape(fn.crop(image, crop=[1, n], crop_pos_x=x, crop_pos_y=0.0), shape=shape)
    return fn.cast(px, dtype=dtype) if dtype is not None else px


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=JPEGS)
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    pts2 = pixels(gray, [5, 2], 0.2)                      # uint8 [5, 2]
    pts3 = pixels(gray, [4, 3], 0.6, types.FLOAT)        # float [4, 3]
    m22 = pixels(gray, [2, 2], 0.4, types.FLOAT)
    mt23 = pixels(gray, [2, 3], 0.8, types.FLOAT)
    t2 = pixels(gray, [2], 0.9, types.FLOAT)
    m_scaled = fn.cast(m22, dtype=types.FLOAT)
    return (fn.coord_transform(pts2),
            fn.coord_transform(pts2, M=[0.5, -1.25, 2.0, 0.75], T=[3.5, -7.0]),
            fn.coord_transform(pts2, M=[0.5], T=[-100.0], dtype=types.UINT8),
            fn.coord_transform(pts2, MT=[1.5, 0.5, -3.25], dtype=types.UINT8),
            fn.coord_transform(pts3, MT=[2.0]),
            fn.coord_transform(pts3, M=[1.0, 0.0, 0.5, 0.25, 1.0, 0.0], T=[0.125]),
            fn.coord_transform(pts2, M=m22, T=t2),
            fn.coord_transform(pts2, MT=mt23),
            fn.coord_transform(pts2, M=m_scaled, T=[0.5], dtype=types.UINT8))


pipe = oracle_pipe()
