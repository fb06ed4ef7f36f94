# Pattern: per-sample augmentation choices with conditionals; each branch fills the same
# dictionary of parameters (and a list) that the code after the `if` reads, as the
# conditional-execution documentation allows for dicts, lists and nested structures.
#     dalic run samples/scripts/real/conditional_augment.py -n 3
# oracle: iterations=3
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def


@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=1234,
              enable_conditionals=True)
def augment_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=False)
    images = fn.decoders.image(jpegs, device="cpu")
    images = fn.crop(images, crop=(48, 64))
    params = {}
    if fn.random.coin_flip(probability=0.5):
        params["flip"] = fn.cast(labels * 0 + 1, dtype=types.INT32)
        params["brightness"] = fn.cast(labels * 0 + 3, dtype=types.FLOAT)
        stages = [images, fn.flip(images, horizontal=1)]
    else:
        params["flip"] = fn.cast(labels * 0, dtype=types.INT32)
        params["brightness"] = fn.cast(labels * 0 + 1, dtype=types.FLOAT)
        stages = [images, images]
    out = fn.flip(stages[1], vertical=params["flip"])
    out = fn.brightness(out, brightness=params["brightness"])
    return out, stages[0], labels


pipe = augment_pipe()
