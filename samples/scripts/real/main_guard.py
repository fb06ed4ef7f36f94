# Pattern: a module that is both imported (for its pipeline) and run as a script: module
# constants from the environment with a check of the data directory, a plotting helper, and
# an `if __name__ == "__main__":` block that builds the pipeline, runs it and shows results.
# dalic runs the module as __main__, creates the pipeline there, and skips the display code
# after it with one warning naming its first line.
#     dalic run samples/scripts/real/main_guard.py -n 3
# oracle: run_name=__main__
# oracle: ran=1
# oracle: checks=outputs
# (under DALI the __main__ block already ran one iteration: dalic's second is DALI's first)
import os

import numpy as np
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def

DATA_DIR = os.path.expanduser(os.environ.get("DALIC_SAMPLE_IMAGES", "samples/images"))
if not os.path.isdir(DATA_DIR):
    raise FileNotFoundError("no image directory at " + DATA_DIR)


@pipeline_def
def mirror_pipe(data_dir, size=48):
    jpegs, labels = fn.readers.file(file_root=data_dir, random_shuffle=False)
    images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
    images = fn.crop(images, crop=(size, size))
    return fn.flip(images, horizontal=1), labels


def show(images):
    import matplotlib.pyplot as plt
    for i in range(len(images)):
        plt.subplot(1, len(images), i + 1)
        plt.imshow(images.at(i) / 255)
    plt.show()


if __name__ == "__main__":
    pipe = mirror_pipe(DATA_DIR, batch_size=4, num_threads=2, device_id=None)
    pipe.build()
    images, labels = pipe.run()
    print("batch:", images.as_tensor().shape(), "labels:", np.array(labels.as_tensor()).ravel())
