# Which seed each operator gets: DALI's operator order (outputs first, inputs before their
# consumers), not the order of the calls; a pruned operator takes none, nor does one given a
# seed; the reader takes one (its shuffle shows it).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=2024)
def rng_seeds():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True,
                                    initial_fill=4)
    a = fn.random.uniform(shape=[2])
    fn.random.normal()
    b = fn.random.normal(shape=[2], seed=7)
    c = fn.random.coin_flip(probability=fn.random.uniform(range=[0.0, 1.0]), shape=[4])
    d = fn.random.uniform(shape=[2], seed=-5)
    return c, labels, a, b, d, fn.random.normal(shape=[2])


pipe = rng_seeds()
