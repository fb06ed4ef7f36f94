# transforms.*: per-sample argument inputs (pixel values of the sample photos: crop of a grey
# image, reshaped and cast to float) and a per-sample input transform.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types

T = fn.transforms


def pixels(gray, shape, x):
    """Pixel values of row 0 from column x, as a float tensor of `shape`."""
    n = 1
    for e in shape:
        n *= e
    px = fn.crop(gray, crop=[1, n], crop_pos_x=x, crop_pos_y=0.0)
    return fn.cast(fn.reshape(px, shape=shape), dtype=types.FLOAT)


# JPEGs only: dalic's grey conversion of PNGs is not yet DALI's
JPEGS = ["cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg", "cat/chelsea_exif6.jpg",
         "coffee/coffee_422.jpg", "coffee/coffee_444.jpg", "space/rocket.jpg",
         "space/astronaut_444_progressive.jpg"]


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=JPEGS)
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    angle = pixels(gray, [], 0.3)
    vec2 = pixels(gray, [2], 0.5)
    vec3 = pixels(gray, [3], 0.7)
    mat32 = pixels(gray, [3, 2], 0.1)
    tr = T.translation(offset=vec2)
    rot = T.rotation(tr, angle=angle, center=vec2)
    rot3 = T.rotation(angle=angle, axis=vec3)
    sc = T.scale(rot, scale=vec2, center=[1.0, 2.0], reverse_order=True)
    sh3 = T.shear(shear=mat32)
    cr = T.crop(from_start=vec3, from_end=[300.0], to_start=[0.0], to_end=vec3)
    return tr, rot, rot3, sc, sh3, cr, T.combine(tr, sc, rot)


pipe = oracle_pipe()
