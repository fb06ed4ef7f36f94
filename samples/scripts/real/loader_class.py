# Pattern: a loader class that is not a Pipeline (NVIDIA's Jasper / QuartzNet DaliPipeline):
# its __init__ takes keyword-only settings, defines a @pipeline_def function inside and
# builds it, keeping the pipeline as an attribute; a classmethod makes it from a config dict.
# dalic finds the class as a pipeline factory and builds it with --arg values; Pipeline
# parameters it takes (batch_size, num_threads, device_id) come from the flags too.
#     dalic run samples/scripts/real/loader_class.py --arg data_dir='"samples/images"' \
#         --batch-size 3 --num-threads 1 --device-id none
# oracle: pipeline=DaliLoader
# oracle: args=data_dir="samples/images", batch_size=3, num_threads=1, device_id=None
import nvidia.dali as dali
import nvidia.dali.fn as fn
import nvidia.dali.types as types


class DaliLoader:
    def __init__(self, *, data_dir, batch_size, num_threads, device_id, crop=40,
                 train=True):
        self.crop = crop
        self.train = train

        @dali.pipeline_def
        def loader_pipe():
            jpegs, labels = fn.readers.file(file_root=data_dir, random_shuffle=False,
                                            name="Reader")
            images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
            images = fn.resize(images, resize_shorter=self.crop)
            images = fn.crop(images, crop=(self.crop, self.crop))
            if self.train:
                images = fn.flip(images, horizontal=1)
            return images, labels

        self.pipe_handle = loader_pipe(batch_size=batch_size, num_threads=num_threads,
                                       device_id=device_id)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_pipeline(self):
        return self.pipe_handle
