# rotate: sample photos (cropped, so both sides see the same pixels) rotated by constant and
# per-sample angles, on DALI's canvas, with keep_size and an explicit size, NN and LINEAR,
# clamped and filled borders, uint8 and float output.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types


# JPEGs only: dalic's grey conversion of PNGs is not yet DALI's
JPEGS = ["cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg", "cat/chelsea_exif6.jpg",
         "coffee/coffee_422.jpg", "coffee/coffee_444.jpg", "space/rocket.jpg",
         "space/astronaut_444_progressive.jpg"]


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=JPEGS)
    rgb = fn.crop(fn.decoders.image(jpegs, output_type=types.RGB), crop=[61, 90])
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    angle = fn.cast(fn.reshape(fn.crop(gray, crop=[1, 1]), shape=[]), dtype=types.FLOAT)
    return (fn.rotate(rgb, angle=30.0),
            fn.rotate(rgb, angle=-117.5, fill_value=12.0, interp_type=types.INTERP_NN),
            fn.rotate(rgb, angle=45.0, keep_size=True),
            fn.rotate(rgb, angle=200.0, size=[40.0, 70.0], fill_value=0.0, dtype=types.FLOAT),
            fn.rotate(rgb, angle=angle, fill_value=255.0))


pipe = oracle_pipe()
