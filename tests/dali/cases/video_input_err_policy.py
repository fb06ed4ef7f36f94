# experimental.inputs.video refuses a last_sequence_policy other than 'partial' / 'pad'.
# oracle: error=Provided `last_sequence_policy` is not supported: cut
# oracle: feed=vin=build/release/clips/mjpeg.avi
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def oracle_pipe():
    return fn.experimental.inputs.video(name="vin", sequence_length=3,
                                        last_sequence_policy="cut")


pipe = oracle_pipe()
