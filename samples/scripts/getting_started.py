# Getting started: read JPEG/PNG files with their labels (one directory per class), decode,
# resize and normalize them. The same file runs under NVIDIA DALI and under dalic:
#     dalic run samples/scripts/getting_started.py -n 10
# Paths are relative to the directory the pipeline runs from (the repository root).
from nvidia.dali import pipeline_def
import nvidia.dali.fn as fn
import nvidia.dali.types as types

image_dir = "samples/images"
batch_size = 4


@pipeline_def
def simple_pipeline():
    jpegs, labels = fn.readers.file(file_root=image_dir, random_shuffle=True, initial_fill=32)
    images = fn.decoders.image(jpegs, device="mixed", output_type=types.RGB)
    images = fn.resize(images, resize_x=224, resize_y=224)
    images = fn.crop_mirror_normalize(
        images,
        dtype=types.FLOAT,
        output_layout="CHW",
        mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
        std=[0.229 * 255, 0.224 * 255, 0.225 * 255],
    )
    return images, labels


pipe = simple_pipeline(batch_size=batch_size, num_threads=2, device_id=0, seed=1234)
pipe.build()

if __name__ == "__main__":
    # display-only code: dalic skips what it does not model (run results, plotting)
    images, labels = pipe.run()
    print("labels:", labels.as_array())
