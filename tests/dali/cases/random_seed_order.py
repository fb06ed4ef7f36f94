# Which seed each operator gets: DALI hands the pipeline's seeds out in its operator order
# (outputs first, an operator after its inputs), skips pruned operators and those given a
# seed (-1 included); the reader takes one (its shuffle shows it).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=2024)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True,
                                    initial_fill=5)
    a = fn.random.uniform(shape=[2])
    unused = fn.random.normal()
    b = fn.random.normal(shape=[2], seed=7)
    c = fn.random.coin_flip(probability=fn.random.uniform(range=[0.0, 1.0]), shape=[4])
    d = fn.random.uniform(shape=[2], seed=-1)
    return c, labels, a, b, d, fn.random.normal(shape=[2])


pipe = oracle_pipe()
