# external_source with every kind of source DALI takes: a generator object, a list cycled
# with cycle=True, an iterator class (__iter__ / __next__), a callable given the batch index,
# one given BatchInfo (batch_info=True), a per-sample callable given SampleInfo with
# num_outputs=2, and a generator function with cycle="quiet" that wraps around.
# oracle: checks=outputs
# oracle: iterations=5
import numpy as np
from nvidia.dali import pipeline_def, fn, types


def gen():
    k = 0
    while True:
        yield np.full((2, 3), k, dtype=np.int16)
        k += 1


class Counter:
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        self.i = self.start
        return self

    def __next__(self):
        self.i += 1
        return [np.array([self.i, -self.i], dtype=np.int64) for _ in range(2)]


def by_index(i):
    return np.arange(4, dtype=np.float32).reshape(2, 2) + i


def by_info(info):
    return [np.array([info.iteration, info.epoch_idx], dtype=np.int32)] * 2


def per_sample(si):
    return (np.array([si.idx_in_epoch, si.idx_in_batch], dtype=np.int32),
            np.full((si.idx_in_batch + 1,), si.iteration, dtype=np.uint8))


def short():
    yield [np.array([1.5], dtype=np.float64), np.array([2.5], dtype=np.float64)]
    yield [np.array([3.5], dtype=np.float64), np.array([4.5], dtype=np.float64)]


lst = [np.array([[7], [8]], dtype=np.int32), np.array([[9], [10]], dtype=np.int32)]


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def oracle_pipe():
    a = fn.external_source(source=gen())
    b = fn.external_source(source=lst, cycle=True)
    c = fn.external_source(source=Counter(10))
    d = fn.external_source(source=by_index)
    e = fn.external_source(source=by_info, batch_info=True)
    f, g = fn.external_source(source=per_sample, batch=False, num_outputs=2)
    h = fn.external_source(source=short, cycle="quiet")
    return a, b, c, d, e, f, g, h


pipe = oracle_pipe()
