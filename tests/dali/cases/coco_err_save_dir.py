# readers.coco: save_preprocessed_annotations without its directory (DALI's error).
# oracle: error=``save_preprocessed_annotations`` and ``save_preprocessed_annotations_dir`` should be provided together
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
                                 save_preprocessed_annotations=True))


pipe = oracle_pipe()
