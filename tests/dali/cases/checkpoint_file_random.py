# Checkpoints both ways over readers.file with random_shuffle (a shuffle buffer smaller than
# the 12 files) and random operators (coin_flip, uniform, random_resized_crop): after 3
# iterations of 5 the reader is 3 samples into its second epoch; the next 4 batches cross
# into the third. random_resized_crop's float resampling may differ by 1 LSB, as in its own
# case.
# oracle: checkpoint=3
# oracle: iterations=4
# oracle: atol=1
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=1234)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True,
                                    initial_fill=4, name="Reader")
    images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
    flip = fn.random.coin_flip(probability=0.5)
    u = fn.random.uniform(range=[0.0, 1.0])
    rrc = fn.random_resized_crop(images, size=[24, 24])
    return labels, flip, u, rrc


pipe = oracle_pipe()
