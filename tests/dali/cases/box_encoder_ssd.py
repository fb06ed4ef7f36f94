# box_encoder: boxes and labels made of the sample photos' pixels, matched to a grid of 32
# SSD-style anchors: plain (center, size) output, offsets with scale / means / stds, a low
# and a high criteria.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types

JPEGS = ["cat/chelsea.jpg", "coffee/coffee_422.jpg", "cat/chelsea_411.jpg", "space/rocket.jpg",
         "coffee/coffee_444.jpg", "cat/chelsea_440.jpg", "cat/chelsea_gray.jpg",
         "cat/chelsea_exif6.jpg"]

ANCHORS = []
for size in (0.3, 0.55):
    for gy in range(4):
        for gx in range(4):
            cx, cy = (gx + 0.5) / 4, (gy + 0.5) / 4
            ANCHORS += [cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2]


def pixels(image, shape, x):
    n = 1
    for e in shape:
        n *= e
    return fn.reshape(fn.crop(image, crop=[1, n], crop_pos_x=x, crop_pos_y=0.0), shape=shape)


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=JPEGS)
    gray = fn.decoders.image(jpegs, output_type=types.GRAY)
    # six boxes spread over the image, moved per sample by pixel values (up to 0.1)
    base = fn.constant(fdata=[0.05, 0.1, 0.3, 0.45, 0.5, 0.05, 0.95, 0.4, 0.1, 0.55, 0.35, 0.95,
                              0.4, 0.4, 0.7, 0.8, 0.62, 0.6, 0.9, 0.9, 0.3, 0.2, 0.32, 0.6],
                       shape=[6, 4])
    shift = fn.coord_transform(pixels(gray, [1, 2], 0.35), M=[1 / 2550])
    shift = fn.reshape(fn.coord_transform(shift, MT=[1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0]),
                       shape=[4])
    boxes = fn.coord_transform(base, T=shift)
    labels = fn.cast(pixels(gray, [6], 0.75), dtype=types.INT32)
    b0, l0 = fn.box_encoder(boxes, labels, anchors=ANCHORS)
    b1, l1 = fn.box_encoder(boxes, labels, anchors=ANCHORS, criteria=0.2, offset=True,
                            scale=300.0, means=[0.1, -0.2, 0.05, 0.0], stds=[0.1, 0.1, 0.2, 0.2])
    b2, l2 = fn.box_encoder(boxes, labels, anchors=ANCHORS, criteria=0.9, offset=True)
    return b0, l0, b1, l1, b2, l2


pipe = oracle_pipe()
