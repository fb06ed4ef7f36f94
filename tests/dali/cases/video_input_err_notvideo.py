# experimental.inputs.video fed bytes that are not a video (a protobuf): DALI's words.
# oracle: error=Failed to create video decoder for provided video data
# oracle: feed=vin=tests/data/proto/coin_cast.pb
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def oracle_pipe():
    return fn.experimental.inputs.video(name="vin", sequence_length=3)


pipe = oracle_pipe()
