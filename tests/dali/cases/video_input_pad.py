# experimental.inputs.video with last_sequence_policy='pad': a video's last sequence is
# filled with zero frames up to sequence_length (5): the 10-frame MJPEG gives one batch of
# 2 full sequences, the 18-frame VP9 [5, 5] then [5, 3 + 2 zero frames]; the output feeds
# sequence operators (per-frame flip, a crop of the frames).
# oracle: atol=1
# oracle: iterations=4
# oracle: feed=vin=build/release/clips/tree/a
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=2, device_id=None)
def oracle_pipe():
    seq = fn.experimental.inputs.video(name="vin", sequence_length=5,
                                       last_sequence_policy="pad")
    return seq, fn.crop(fn.flip(seq, horizontal=1), crop=(32, 48))


pipe = oracle_pipe()
