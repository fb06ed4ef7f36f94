# oracle: atol=0.0001
# crop_mirror_normalize with a random crop position (random.uniform) and a random mirror
# (random.coin_flip): the same seed gives DALI's windows and flips; float output, CHW.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=55)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.crop_mirror_normalize(images, crop=(48, 64),
                                    crop_pos_x=fn.random.uniform(range=[0.0, 1.0]),
                                    crop_pos_y=fn.random.uniform(range=[0.0, 1.0]),
                                    mirror=fn.random.coin_flip(),
                                    mean=[120.0, 110.0, 100.0], std=[60.0, 55.0, 50.0],
                                    dtype=types.FLOAT, output_layout="CHW")


pipe = oracle_pipe()
