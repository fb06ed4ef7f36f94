# Pattern: the module builds its own file list and labels from the data directory (one
# sub-directory per class, as ImageFolder) with os / glob, then hands them to the reader.
# An environment variable may point elsewhere; the default is the samples folder.
#     dalic run samples/scripts/real/file_list.py -n 4
# oracle: iterations=4
import glob
import os

import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def

DATA_ROOT = os.environ.get("DALIC_SAMPLE_IMAGES", os.path.join("samples", "images"))
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png")

classes = sorted(d for d in os.listdir(DATA_ROOT) if os.path.isdir(os.path.join(DATA_ROOT, d)))
class_to_idx = {name: i for i, name in enumerate(classes)}

files, labels = [], []
for name in classes:
    for path in sorted(glob.glob(os.path.join(DATA_ROOT, name, "*"))):
        if os.path.splitext(path)[1].lower() in IMAGE_EXTENSIONS:
            files.append(path)
            labels.append(class_to_idx[name])

# keep one file in three, as a quick validation subset would
files, labels = files[::3], labels[::3]


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def file_list_pipe():
    jpegs, label = fn.readers.file(files=files, labels=labels, random_shuffle=False)
    images = fn.decoders.image(jpegs, device="cpu", output_type=types.GRAY)
    images = fn.resize(images, size=[32, 32], interp_type=types.INTERP_NN)
    return images, label


pipe = file_list_pipe()
