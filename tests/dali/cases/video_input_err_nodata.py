# experimental.inputs.video run with no video fed.
# oracle: dali_error=No data was provided to the InputOperator
# oracle: dalic_error=no data was fed for iteration 0
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def oracle_pipe():
    return fn.experimental.inputs.video(name="vin", sequence_length=3)


pipe = oracle_pipe()
