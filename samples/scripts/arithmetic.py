# Mathematical expressions on DataNodes: every operator below becomes one
# ArithmeticGenericOp, constants are inlined into its expression.
from nvidia.dali import pipeline_def, fn, types
import nvidia.dali.math as dmath


@pipeline_def(batch_size=8, num_threads=2, device_id=None, seed=42)
def arithmetic_pipeline():
    a = fn.random.uniform(range=[-10.0, 10.0], shape=[4])
    b = fn.random.uniform(range=[1.0, 5.0], shape=[4])
    two = types.Constant(2, dtype=types.INT32)
    total = a + b
    scaled = (a - b) * 0.5 / b
    squared = a**two
    clamped = dmath.clamp(a, -1.0, 1.0)
    magnitude = dmath.sqrt(dmath.abs(a))
    is_positive = a > 0
    return total, scaled, squared, clamped, magnitude, is_positive


pipe = arithmetic_pipeline()
