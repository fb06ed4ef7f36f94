# Checkpoints both ways over readers.coco with random_shuffle on shard 0 of 2, with
# random_bbox_crop's windows over the relative boxes (its Philox state) and coin_flip.
# oracle: checkpoint=2
# oracle: iterations=3
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco()

D = "/tmp/dalic_oracle_coco"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=6)
def oracle_pipe():
    img, box, lab = fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                                    random_shuffle=True, initial_fill=5, num_shards=2, shard_id=0,
                                    ltrb=True, ratio=True)
    anchor, shape, box2, lab2 = fn.random_bbox_crop(box, lab, bbox_layout="xyXY",
                                                    thresholds=[0.1, 0.3], scaling=[0.3, 1.0])
    return anchor, shape, box2, lab2, fn.random.coin_flip()


pipe = oracle_pipe()
