# Pattern: settings in a JSON file next to the module and a hand-written validation list
# read with open(); paths resolved relative to the module's own folder (__file__). Blank and
# comment lines of the list are skipped, class names mapped to indices from the config.
#     dalic run samples/scripts/real/config_files.py -n 2
# oracle: iterations=2
# oracle: atol=0.02
import json
import os

import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "data", "config.json")) as f:
    cfg = json.load(f)

height, width = cfg["input_size"]
mean = [255 * m for m in cfg["normalize"]["mean"]]
std = [255 * s for s in cfg["normalize"]["std"]]
class_index = {c: i for i, c in enumerate(cfg["classes"])}

files, labels = [], []
with open(os.path.join(HERE, "data", "val_list.txt"), "r") as f:
    for line in f.readlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        rel, cls = line.split()
        files.append(os.path.join(cfg["image_root"], rel))
        labels.append(class_index[cls])


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def val_pipe():
    jpegs, label = fn.readers.file(files=files, labels=labels)
    images = fn.decoders.image(jpegs, device="cpu")
    images = fn.resize(images, resize_x=width, resize_y=height)
    images = fn.crop_mirror_normalize(images, mean=mean, std=std, dtype=types.FLOAT)
    return images, label


pipe = val_pipe()
