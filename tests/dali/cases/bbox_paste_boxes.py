# bbox_paste: boxes of pixel values in [0, 1] (xywh and ltrb) pasted with constant and
# per-sample ratios and positions, including the clamp that keeps boxes inside [0, 1].
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types

JPEGS = ["cat/chelsea.jpg", "coffee/coffee_422.jpg", "cat/chelsea_411.jpg", "space/rocket.jpg",
         "coffee/coffee_444.jpg", "cat/chelsea_440.jpg", "space/astronaut_444_progressive.jpg",
         "cat/chelsea_exif6.jpg"]


def pixels(image, shape, x, scale):
    n = 1
    for e in shape:
        n *= e
    px = fn.reshape(fn.crop(image, crop=[1, n], crop_pos_x=x, crop_pos_y=0.0), shape=shape)
    return fn.coord_transform(px, M=[scale])


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=JPEGS)
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    b = pixels(gray, [6, 4], 0.4, 1.0 / 255.0)
    ratio = fn.reshape(pixels(gray, [1, 1], 0.1, 1.0 / 64.0), shape=[])
    ratio = fn.coord_transform(fn.reshape(ratio, shape=[1, 1]), T=[1.0])  # 1 .. 5
    ratio = fn.reshape(ratio, shape=[])
    px = fn.reshape(pixels(gray, [1, 1], 0.8, 1.0 / 255.0), shape=[])
    return (fn.bbox_paste(b, ratio=2.0),
            fn.bbox_paste(b, ratio=3.0, paste_x=0.0, paste_y=1.0, ltrb=True),
            fn.bbox_paste(b, ratio=1.5, paste_x=1.0, paste_y=1.0),
            fn.bbox_paste(b, ratio=ratio, paste_x=px, ltrb=True),
            fn.bbox_paste(b, ratio=ratio, paste_y=px))


pipe = oracle_pipe()
