/*
 * python_function: DALI's PythonFunction — a function of the pipeline script runs on the
 * inputs, per sample or on the whole batch (`batch_processing`), and returns the outputs,
 * through dalic's interpreter (kernels/common/python_fn.h). Not serializable, as in DALI.
 */
#include "kernels/common/python_fn.h"

static const dalic_arg_schema_t pyfn_args[] = {
    DALIC_PYFN_ARGS("False"),
    {0},
};

DALIC_OPERATOR(PythonFunction) = {
    .name = "PythonFunction",
    .fn = "python_function",
    .doc = "Runs a Python function of the pipeline script on the inputs (through dalic's "
           "interpreter, one call at a time).",
    .min_inputs = 0,
    .max_inputs = 256,
    .num_outputs = 1,
    .outputs_for = dalic_pyfn_outputs,
    .devices = DALIC_DEV_CPU,
    .no_prune = false,
    .not_serializable = true,
    .args = pyfn_args,
    .cpu = &dalic_pyfn_kernel,
};
