# readers.coco pixelwise_masks: polygons rasterised as the COCO API does, RLE masks as count
# lists and compressed strings, overlapping labels merged as DALI merges them, an unknown
# category (label 0), an image without annotations; image ids; shuffled.
# oracle: iterations=3
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco_masks()

D = "/tmp/dalic_oracle_coco_masks"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    outs = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                           pixelwise_masks=True, image_ids=True, random_shuffle=True,
                           initial_fill=4)
    return tuple(outs)


pipe = oracle_pipe()
