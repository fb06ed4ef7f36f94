# experimental.readers.video with file_list ranges: seconds (DALI 2.4's rounding,
# start_down_end_up) and frames with all_up rounding, negative frames counting from the end;
# sharded (shard 1 of 2) with pad_last_batch.
# oracle: iterations=4
# oracle: atol=1
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn, types

CLIPS = "build/release/clips/"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    a, la, na = fn.experimental.readers.video(
        file_list=CLIPS + "list_seconds.txt", sequence_length=2, enable_frame_num="scalar")
    b, lb, nb = fn.experimental.readers.video(
        file_list=CLIPS + "list_frames.txt", file_list_format="frames",
        file_list_rounding="all_up", sequence_length=2, step=1, enable_frame_num="scalar",
        num_shards=2, shard_id=1, pad_last_batch=True)
    return a, la, na, b, lb, nb


pipe = oracle_pipe()
