/*
 * torch_python_function (nvidia.dali.plugin.pytorch; DALI's TorchPythonFunction): as
 * python_function, but batch_processing defaults to True and DALI hands the function PyTorch
 * tensors. dalic hands it arrays of its numpy subset (kernels/common/python_fn.h), so a body
 * that keeps to arithmetic, indexing and the subset runs; one that calls torch is refused at
 * load, naming the function and the construct. Not serializable, as in DALI.
 */
#include "kernels/common/python_fn.h"

static const dalic_arg_schema_t torch_pyfn_args[] = {
    DALIC_PYFN_ARGS("True"),
    {0},
};

DALIC_OPERATOR(TorchPythonFunction) = {
    .name = "TorchPythonFunction",
    .fn = "torch_python_function",
    .module = "nvidia.dali.plugin.pytorch.fn",
    .doc = "PyTorch plugin's python_function (batch_processing by default); the function runs "
           "in dalic's interpreter on arrays instead of torch tensors.",
    .min_inputs = 0,
    .max_inputs = 256,
    .num_outputs = 1,
    .outputs_for = dalic_pyfn_outputs,
    .devices = DALIC_DEV_CPU,
    .no_prune = false,
    .not_serializable = true,
    .args = torch_pyfn_args,
    .cpu = &dalic_pyfn_kernel,
};
