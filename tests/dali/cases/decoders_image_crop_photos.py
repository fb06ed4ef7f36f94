# decoders.image_crop: fixed windows placed by crop_pos_x / crop_pos_y (rounded and truncated
# anchors), crop_w / crop_h, a [D, H, W] crop, per-sample positions looked up from the labels,
# and a BGR output, over JPEGs of every kind and a PNG.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    pos = fn.squeeze(fn.lookup_table(labels, keys=[0, 1, 2], values=[0.0, 0.7, 1.0]), axes=[0])
    return (fn.decoders.image_crop(jpegs, crop=(31, 41), crop_pos_x=0.25, crop_pos_y=0.8),
            fn.decoders.image_crop(jpegs, crop=(31, 41), crop_pos_x=0.25, rounding="truncate"),
            fn.decoders.image_crop(jpegs, crop_w=120, crop_h=64, crop_pos_x=pos),
            fn.decoders.image_crop(jpegs, crop=(3, 57, 90), crop_pos_y=pos,
                                   output_type=types.BGR))


pipe = oracle_pipe()
