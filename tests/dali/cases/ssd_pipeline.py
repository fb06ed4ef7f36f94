# oracle: atol=0.06
# oracle: checks=outputs
# oracle: iterations=2
# The SSD-style pipeline of bench/ssd_cpu_pipe.py at batch 4: random_bbox_crop, decode, slice,
# resize 300x300, bb_flip and mirror, hsv, color_twist, crop_mirror_normalize, box_encoder
# with SSD300's anchors. Boxes and labels exact; images within 0.06 (about 3 uint8 levels
# after normalization: resampling and colour rounding). Outputs only: serializing a pipeline
# of random operators back to DALI gives other seeds on this branch (as roi_random_crop_modes).
from nvidia.dali import pipeline_def, fn, types
import math

ROOT = "samples/images"  # relative: the bench runs from the repository root


def ssd_anchors():
    # SSD300's default boxes (ltrb, 8732): feature maps, steps, scales, aspect ratios
    fig, feat = 300, [38, 19, 10, 5, 3, 1]
    steps, scales = [8, 16, 32, 64, 100, 300], [21, 45, 99, 153, 207, 261, 315]
    ratios = [[2], [2, 3], [2, 3], [2, 3], [2], [2]]
    out = []
    for idx in range(len(feat)):
        sk1, sk2 = scales[idx] / fig, scales[idx + 1] / fig
        sk3 = math.sqrt(sk1 * sk2)
        sizes = [(sk1, sk1), (sk3, sk3)]
        for a in ratios[idx]:
            w, h = sk1 * math.sqrt(a), sk1 / math.sqrt(a)
            sizes += [(w, h), (h, w)]
        fk = fig / steps[idx]
        for w, h in sizes:
            for i in range(feat[idx]):
                for j in range(feat[idx]):
                    cx, cy = (j + 0.5) / fk, (i + 0.5) / fk
                    out += [min(max(cx - 0.5 * w, 0.0), 1.0), min(max(cy - 0.5 * h, 0.0), 1.0),
                            min(max(cx + 0.5 * w, 0.0), 1.0), min(max(cy + 0.5 * h, 0.0), 1.0)]
    return out


ANCHORS = ssd_anchors()


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=12)
def ssd_pipe():
    jpegs, _ = fn.readers.file(file_root=ROOT, random_shuffle=True)
    # 6 boxes per image: random corners and extents (ltrb in [0, 1])
    lo = fn.random.uniform(range=[0.0, 0.6], shape=[6, 2])
    ext = fn.random.uniform(range=[0.05, 0.4], shape=[6, 2])
    boxes = fn.coord_transform(fn.cat(lo, ext, axis=1),
                               M=[1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1])
    labels = fn.cast(fn.random.uniform(range=[1, 80], shape=[6]), dtype=types.INT32)
    anchor, shape, boxes, labels = fn.random_bbox_crop(
        boxes, labels, aspect_ratio=[0.5, 2.0], thresholds=[0, 0.1, 0.3, 0.5, 0.7, 0.9],
        scaling=[0.3, 1.0], bbox_layout="xyXY", allow_no_crop=True, num_attempts=50)
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    images = fn.slice(images, anchor, shape)
    images = fn.resize(images, resize_x=300, resize_y=300)
    flip = fn.random.coin_flip(probability=0.5)
    boxes = fn.bb_flip(boxes, ltrb=True, horizontal=flip)
    images = fn.hsv(images, hue=fn.random.uniform(range=[-18, 18]),
                    saturation=fn.random.uniform(range=[0.5, 1.5]))
    images = fn.color_twist(images, brightness=fn.random.uniform(range=[0.875, 1.125]),
                            contrast=fn.random.uniform(range=[0.5, 1.5]))
    images = fn.crop_mirror_normalize(images, crop=(300, 300), mirror=flip, dtype=types.FLOAT,
                                      mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
                                      std=[0.229 * 255, 0.224 * 255, 0.225 * 255],
                                      output_layout="CHW")
    boxes, labels = fn.box_encoder(boxes, labels, criteria=0.5, anchors=ANCHORS)
    return images, boxes, labels


pipe = ssd_pipe()
