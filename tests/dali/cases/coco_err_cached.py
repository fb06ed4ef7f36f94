# readers.coco: skip_cached_images (DALI's error).
# oracle: error=COCOReader doesn't support `skip_cached_images` option
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco()

D = "/tmp/dalic_oracle_coco"


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    img, box, lab = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                                    skip_cached_images=True)
    return img, box, lab


pipe = oracle_pipe()
