# readers.coco: ltrb and ratio boxes, polygon masks (RLE segmentations give no polygon),
# image ids, skip_empty, crowd annotations left out, shuffle_after_epoch.
# oracle: iterations=5
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco()

D = "/tmp/dalic_oracle_coco"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=6)
def oracle_pipe():
    outs = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                           ltrb=True, ratio=True, polygon_masks=True, image_ids=True,
                           skip_empty=True, include_iscrowd=False, shuffle_after_epoch=True)
    return tuple(outs)


pipe = oracle_pipe()
