# readers.coco: preprocessed_annotations with images (DALI's error).
# oracle: error=When reading data from preprocessed annotation files, "images" is not supported.
from nvidia.dali import pipeline_def, fn

D = "/tmp/dalic_oracle_coco_masks"


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return tuple(fn.readers.coco(file_root=D + "/images", preprocessed_annotations=D,
                                 images=["00_a.jpg"]))


pipe = oracle_pipe()
