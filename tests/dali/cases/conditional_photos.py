# oracle: iterations=4
# Conditionals on photos: a random split flips half the batch, an elif chain on the label,
# `not` and `and` on predicates; the _conditional split/merge operators get DALI's names.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=8, enable_conditionals=True)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    images = fn.resize(images, resize_x=40, resize_y=30, interp_type=types.INTERP_NN)
    if fn.random.coin_flip(dtype=types.BOOL):
        images = fn.flip(images, horizontal=1)
    if labels[0] == 0:
        tag = labels + 100
    elif labels[0] == 1:
        tag = labels * 10
    else:
        tag = labels - 5
    big = labels[0] > 0
    if not big and fn.random.coin_flip(probability=0.7, dtype=types.BOOL):
        images = fn.flip(images, vertical=1)
    return images, tag


pipe = oracle_pipe()
