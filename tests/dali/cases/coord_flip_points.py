# coord_flip: points from the sample photos' pixels (scaled to about [0, 1]), default x flip,
# per-axis flips and centers, a custom layout, and per-sample flip / center argument inputs.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types

JPEGS = ["cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg", "cat/chelsea_exif6.jpg",
         "coffee/coffee_422.jpg", "coffee/coffee_444.jpg", "space/rocket.jpg",
         "space/astronaut_444_progressive.jpg"]


def pixels(image, shape, x):
    n = 1
    for e in shape:
        n *= e
    px = fn.reshape(fn.crop(image, crop=[1, n], crop_pos_x=x, crop_pos_y=0.0), shape=shape)
    return fn.coord_transform(px, M=[1.0 / 255.0])  # float points in [0, 1]


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=JPEGS)
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    p1 = pixels(gray, [3, 1], 0.1)
    p2 = pixels(gray, [4, 2], 0.3)
    p3 = pixels(gray, [5, 3], 0.5)
    flip = fn.cast(fn.reshape(labels, shape=[]), dtype=types.INT32)  # labels 0, 1, 2
    center = fn.reshape(pixels(gray, [1, 1], 0.9), shape=[])
    return (fn.coord_flip(p1),
            fn.coord_flip(p2, flip_y=1, center_x=0.25, center_y=0.75),
            fn.coord_flip(p3, flip_x=0, flip_z=1, center_z=-1.5),
            fn.coord_flip(p3, layout="zxy", flip_x=1, flip_y=1),
            fn.coord_flip(p2, layout="yx", flip_x=flip, center_y=center, flip_y=1))


pipe = oracle_pipe()
