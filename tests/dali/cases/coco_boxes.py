# readers.coco: images sorted by id with their boxes and remapped labels (an unknown category
# gives 0), crowd annotations kept, tiny boxes dropped by size_threshold; a sharded
# random_shuffle; sources.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco()

D = "/tmp/dalic_oracle_coco"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=6)
def oracle_pipe():
    img, box, lab = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                                    random_shuffle=True, initial_fill=5, num_shards=2, shard_id=0)
    return img, box, lab, fn.get_property(img, key="source_info")


pipe = oracle_pipe()
