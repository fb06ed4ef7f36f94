# readers.nemo_asr refuses: Unsupported output type
# oracle: error=Unsupported output type
import nvidia.dali.types as types
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_nemo()

D = "/tmp/dalic_oracle_nemo"


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def oracle_pipe():
    return tuple(fn.readers.nemo_asr(manifest_filepaths=[D + "/main.json"], dtype=types.UINT8))


pipe = oracle_pipe()
