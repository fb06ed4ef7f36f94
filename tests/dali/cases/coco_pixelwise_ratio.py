# readers.coco pixelwise_masks with ratio and ltrb (DALI rasterises the ratio'd vertices as
# pixels, from float products as DALI), skip_empty, size_threshold.
# oracle: iterations=3
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco_masks()

D = "/tmp/dalic_oracle_coco_masks"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    return tuple(fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                                 pixelwise_masks=True, ratio=True, ltrb=True, skip_empty=True,
                                 size_threshold=2, stick_to_shard=True))


pipe = oracle_pipe()
