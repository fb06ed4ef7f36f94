# Pattern: Triton's DALI backend video model (dali_backend's video decoding examples): a
# model.dali written by `@autoserialize` on a no-argument @pipeline_def whose input is
# fn.experimental.inputs.video named as the model's input; the client sends one encoded
# video per request and the model answers with batches of sequences over several
# iterations, the last sequence padded ('pad'). Here keyframe thumbnails: the first frame of
# each sequence, channels first, resized.
# dali_backend's examples say device="mixed" and device_id=0 (a GPU); this copy says "cpu"
# and device_id=None so that DALI's CPU build checks it.
#     dalic serialize samples/scripts/real/triton_video_input.py -o model.dali
#     dalic run samples/scripts/real/triton_video_input.py --feed video=build/release/clips/tree/a
# oracle: pipeline=video_pipeline
# oracle: feed=video=build/release/clips/tree/a
# oracle: iterations=4
# oracle: atol=1
# (frames within 1 level of DALI's, video_yuv.h; resize resamples in float)
import nvidia.dali as dali
import nvidia.dali.types as types
from nvidia.dali.plugin.triton import autoserialize

FRAMES_PER_SEQUENCE = 5
OUT_WIDTH = 64
OUT_HEIGHT = 48


@autoserialize
@dali.pipeline_def(batch_size=2, num_threads=2, device_id=None,
                   output_dtype=[types.UINT8], output_ndim=[3])
def video_pipeline():
    original = dali.fn.experimental.inputs.video(name="video", device="cpu",
                                                 sequence_length=FRAMES_PER_SEQUENCE,
                                                 last_sequence_policy='pad')
    first = original[:1, :]  # keep only 1 out of FRAMES_PER_SEQUENCE frames
    first = dali.fn.resize(first, resize_x=OUT_WIDTH, resize_y=OUT_HEIGHT)
    first = dali.fn.transpose(first, perm=[0, 3, 1, 2])
    return dali.fn.squeeze(first, axes=[0], name="thumbnail")
