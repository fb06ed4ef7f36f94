# readers.coco: pixelwise_masks with polygon_masks (DALI's error).
# oracle: error=``pixelwise_masks`` and ``polygon_masks`` are mutually exclusive
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco_masks()

D = "/tmp/dalic_oracle_coco_masks"


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return tuple(fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                                 pixelwise_masks=True, polygon_masks=True))


pipe = oracle_pipe()
