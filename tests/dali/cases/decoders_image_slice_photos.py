# decoders.image_slice: JPEG (baseline, progressive, 4:2:0/4:2:2/4:1:1/4:4:0, grayscale, EXIF
# rotated) and PNG windows decoded alone: start/shape over "WH", relative start/end, a
# per-sample start, positional float and integer anchor/shape inputs, and a BGR output.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    start = fn.cat(labels, labels)
    return (fn.decoders.image_slice(jpegs, start=[30, 17], shape=[101, 77]),
            fn.decoders.image_slice(jpegs, rel_start=[0.1, 0.25], rel_end=[0.9, 0.6]),
            fn.decoders.image_slice(jpegs, start=start, shape=[55, 44], output_type=types.BGR),
            fn.decoders.image_slice(jpegs, fn.constant(fdata=[0.15, 0.3]),
                                    fn.constant(fdata=[0.5, 0.45])),
            fn.decoders.image_slice(jpegs, fn.constant(idata=[5, 40]),
                                    fn.constant(idata=[150, 90]), axes=[0, 1]))


pipe = oracle_pipe()
