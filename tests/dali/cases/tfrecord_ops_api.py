# readers.tfrecord through the legacy ops API, with both class names (ops.readers.TFRecord and
# ops.TFRecordReader), in a Pipeline subclass; the features come back as dicts.
# oracle: iterations=3
# oracle: checks=outputs
from nvidia.dali import ops
from nvidia.dali.pipeline import Pipeline
import nvidia.dali.tfrecord as tfrec

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_tfrecords()

D = "/tmp/dalic_oracle_tfrecord"


class TfPipeline(Pipeline):
    def __init__(self):
        super().__init__(batch_size=4, num_threads=2, device_id=None, seed=5)
        self.a = ops.readers.TFRecord(
            path=D + "/train-1.tfrecord", index_path=D + "/train-1.idx",
            features={"image/class/label": tfrec.FixedLenFeature([1], tfrec.int64, -1)})
        self.b = ops.TFRecordReader(
            path=[D + "/train-0.tfrecord", D + "/train-2.tfrecord"],
            index_path=[D + "/train-0.idx", D + "/train-2.idx"],
            features={"image/encoded": tfrec.FixedLenFeature((), tfrec.string, ""),
                      "image/size": tfrec.VarLenFeature(tfrec.int64, 0)},
            random_shuffle=True, initial_fill=3)

    def define_graph(self):
        a = self.a()
        b = self.b()
        return a["image/class/label"], b["image/encoded"], b["image/size"]


pipe = TfPipeline()
