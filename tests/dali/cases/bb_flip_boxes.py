# bb_flip: boxes made of the sample photos' pixel values scaled to [0, 1] (xywh and ltrb),
# horizontal and vertical flips, per-sample flags from the labels, boxes in a flat tensor.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types

JPEGS = ["cat/chelsea.jpg", "coffee/coffee_422.jpg", "cat/chelsea_411.jpg", "space/rocket.jpg",
         "coffee/coffee_444.jpg", "cat/chelsea_440.jpg", "space/astronaut_444_progressive.jpg",
         "cat/chelsea_exif6.jpg"]


def boxes(image, shape, x):
    n = 1
    for e in shape:
        n *= e
    px = fn.reshape(fn.crop(image, crop=[1, n], crop_pos_x=x, crop_pos_y=0.0), shape=shape)
    return fn.coord_transform(px, M=[1.0 / 255.0])


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=JPEGS)
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    b = boxes(gray, [5, 4], 0.3)
    flag = fn.cast(fn.reshape(labels, shape=[]), dtype=types.INT32)  # 0 or 1 by folder
    return (fn.bb_flip(b),
            fn.bb_flip(b, ltrb=True),
            fn.bb_flip(b, horizontal=0, vertical=1),
            fn.bb_flip(b, ltrb=True, horizontal=0, vertical=0),
            fn.bb_flip(b, horizontal=flag, vertical=flag),
            fn.bb_flip(fn.reshape(boxes(gray, [2, 4], 0.6), shape=[8]), ltrb=True, vertical=1))


pipe = oracle_pipe()
