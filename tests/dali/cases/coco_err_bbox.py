# readers.coco: a bbox of three values (DALI's error).
# oracle: error=Invalid COCO annotation: `bbox` must contain exactly 4 values, got 3.
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco_bad()

D = "/tmp/dalic_oracle_coco"


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    img, box, lab = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/bad_bbox.json")
    return img, box, lab


pipe = oracle_pipe()
