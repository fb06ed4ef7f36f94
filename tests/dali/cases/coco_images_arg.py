# readers.coco: `images` picks files in its own order (a repeat repeated, an unknown name
# dropped), raw category ids, a size_threshold, the deprecated `masks` (polygon rows in
# coordinates).
# oracle: iterations=3
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco()

D = "/tmp/dalic_oracle_coco"


@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=6)
def oracle_pipe():
    outs = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                           images=["07_coffee_444.jpg", "03_chelsea_exif6.jpg", "nope.jpg",
                                   "07_coffee_444.jpg", "10_rocket.jpg"],
                           avoid_class_remapping=True, size_threshold=8.0, masks=True)
    return tuple(outs)


pipe = oracle_pipe()
