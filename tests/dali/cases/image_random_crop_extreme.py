# decoders.image_random_crop with ranges DALI accepts though they make no sense: an infinite
# aspect ratio, areas above 1 and ratios of 1e-30..1e30 (the windows come out 1 pixel wide).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return (fn.decoders.image_random_crop(jpegs, random_aspect_ratio=[0.5, float("inf")]),
            fn.decoders.image_random_crop(jpegs, random_area=[1e30, 1e38],
                                          random_aspect_ratio=[1e-30, 1e30]))


pipe = oracle_pipe()
# oracle: iterations=2
