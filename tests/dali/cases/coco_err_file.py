# readers.coco: an annotations file that is not there (DALI's error).
# oracle: error=Could not open JSON annotations file
from nvidia.dali import pipeline_def, fn

D = "/tmp/dalic_oracle_coco"


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    img, box, lab = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/absent.json")
    return img, box, lab


pipe = oracle_pipe()
