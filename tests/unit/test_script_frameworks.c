/* Unit tests: the framework calls that decide a pipeline's shard and device, answered from
 * the launcher's environment (torchrun, horovodrun, Open MPI, PMI, SLURM, paddle) and the
 * GPUs present, as docs/scripts-frameworks.md lists them; any other framework value is an
 * error at its line. Each test sets its own environment (Criterion runs tests in separate
 * processes). Checks are assertions inside the pipeline definition, where a failing one
 * stops the load. */
#include "tests/testlib/script.h"

#include "engine/device.h"
#include "engine/launcher.h"

TestSuite(script_frameworks, .timeout = 20);

static const char *const fw_launcher_vars[] = {
    "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "HOROVOD_RANK", "HOROVOD_SIZE",
    "HOROVOD_LOCAL_RANK", "HOROVOD_LOCAL_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
    "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_RANK", "PMI_SIZE",
    "MPI_LOCALRANKID", "MPI_LOCALNRANKS", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID",
    "SLURM_NTASKS_PER_NODE", "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_RANK_IN_NODE",
};

static void fw_clear_env(void)
{
	for (size_t i = 0; i < sizeof fw_launcher_vars / sizeof *fw_launcher_vars; i++)
		unsetenv(fw_launcher_vars[i]);
}

/* A module asking every answered call, the answers compared inside the pipeline function
 * with `expected` (a Python tuple); the reader takes its shard from them. */
static dalic_graphdef_t *fw_load(const char *expected)
{
	char src[4096];
	snprintf(src, sizeof src,
	         "import os\n"
	         "import torch\n"
	         "import torch.distributed as dist\n"
	         "import horovod.torch as hvd\n"
	         "import paddle\n"
	         "from nvidia.dali import pipeline_def, fn\n"
	         "try:\n"
	         "    hvd.rank()\n"
	         "    before_init = 'answered'\n"
	         "except ValueError as e:\n"
	         "    before_init = str(e)\n"
	         "hvd.init()\n"
	         "env = paddle.distributed.ParallelEnv()\n"
	         "got = (dist.is_available(), dist.is_initialized(), dist.get_rank(),\n"
	         "       dist.get_world_size(), torch.cuda.is_available(), torch.cuda.device_count(),\n"
	         "       torch.cuda.current_device(), hvd.rank(), hvd.size(), hvd.local_rank(),\n"
	         "       hvd.local_size(), paddle.distributed.get_rank(),\n"
	         "       paddle.distributed.get_world_size(), env.local_rank, env.nranks,\n"
	         "       paddle.device.get_device())\n"
	         "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	         "def pipe():\n"
	         "    assert before_init == 'Horovod has not been initialized; use hvd.init().'\n"
	         "    assert got == %s, got\n"
	         "    j, l = fn.readers.file(file_root='/tmp', shard_id=dist.get_rank(),\n"
	         "                           num_shards=dist.get_world_size())\n"
	         "    return j, l\n"
	         "p = pipe()\n",
	         expected);
	return tl_script_load(src, NULL);
}

/* the GPU answers on this machine */
static const char *fw_gpu(char *buf, size_t n, int local_rank)
{
	int count = dalic_device_count();
	snprintf(buf, n, "%s, %d, %d", count > 0 ? "True" : "False", count, local_rank);
	return buf;
}

static const char *fw_device(char *buf, size_t n, int local_rank)
{
	if (dalic_device_count() > 0)
		snprintf(buf, n, "'gpu:%d'", local_rank);
	else
		snprintf(buf, n, "'cpu'");
	return buf;
}

Test(script_frameworks, without_a_launcher_one_process_of_one)
{
	fw_clear_env();
	char gpu[64], dev[32], expected[512];
	snprintf(expected, sizeof expected,
	         "(True, False, 0, 1, %s, 0, 1, 0, 1, 0, 1, 0, 1, %s)",
	         fw_gpu(gpu, sizeof gpu, 0), fw_device(dev, sizeof dev, 0));
	dalic_graphdef_t *g = fw_load(expected);
	cr_expect_str_eq(tl_def_arg(g, 0, "shard_id"), "0");
	cr_expect_str_eq(tl_def_arg(g, 0, "num_shards"), "1");
	dalic_graphdef_free(g);
}

Test(script_frameworks, torchrun_mpi_slurm_and_pmi_environments)
{
	static const struct {
		const char *env[8]; /* NAME=VALUE */
		int rank, world, local, local_world;
	} cases[] = {
	    {{"RANK=5", "WORLD_SIZE=8", "LOCAL_RANK=1", "LOCAL_WORLD_SIZE=4"}, 5, 8, 1, 4},
	    {{"OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_LOCAL_RANK=0",
	      "OMPI_COMM_WORLD_LOCAL_SIZE=2"},
	     2, 4, 0, 2},
	    {{"PMI_RANK=1", "PMI_SIZE=3", "MPI_LOCALRANKID=1", "MPI_LOCALNRANKS=3"}, 1, 3, 1, 3},
	    /* SLURM without a per-node count: the node holds every task */
	    {{"SLURM_PROCID=6", "SLURM_NTASKS=7", "SLURM_LOCALID=6"}, 6, 7, 6, 7},
	    {{"PADDLE_TRAINER_ID=1", "PADDLE_TRAINERS_NUM=2", "PADDLE_RANK_IN_NODE=1"}, 1, 2, 1, 2},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		fw_clear_env();
		for (int k = 0; cases[c].env[k]; k++)
			putenv((char *)cases[c].env[k]);
		char gpu[64], dev[32], expected[512];
		snprintf(expected, sizeof expected,
		         "(True, True, %d, %d, %s, %d, %d, %d, %d, %d, %d, %d, %d, %s)", cases[c].rank,
		         cases[c].world, fw_gpu(gpu, sizeof gpu, cases[c].local), cases[c].rank,
		         cases[c].world, cases[c].local, cases[c].local_world, cases[c].rank,
		         cases[c].world, cases[c].local, cases[c].world,
		         fw_device(dev, sizeof dev, cases[c].local));
		dalic_graphdef_t *g = fw_load(expected);
		char shard[16];
		snprintf(shard, sizeof shard, "%d", cases[c].rank);
		cr_expect_str_eq(tl_def_arg(g, 0, "shard_id"), shard, "case %zu", c);
		dalic_graphdef_free(g);
	}
	fw_clear_env();
}

Test(script_frameworks, a_broken_launcher_environment_stops_at_the_call)
{
	fw_clear_env();
	setenv("RANK", "9", 1);
	setenv("WORLD_SIZE", "8", 1);
	const char *msg = tl_script_error("import torch.distributed as dist\n"
	                                  "rank = dist.get_rank()\n",
	                                  DALIC_EINVAL);
	cr_expect(strstr(msg, "SCRIPT:2:8: launcher environment (torchrun): rank RANK=9 is "
	                      "outside world WORLD_SIZE=8") == msg,
	          "%s", msg);
	setenv("RANK", "two", 1);
	msg = tl_script_error("import horovod.tensorflow as hvd\n"
	                      "hvd.init()\n"
	                      "r = hvd.rank()\n",
	                      DALIC_EINVAL);
	cr_expect(strstr(msg, "SCRIPT:3:5: launcher environment: RANK='two' is not a "
	                      "non-negative integer") == msg,
	          "%s", msg);
	fw_clear_env();
}

Test(script_frameworks, other_framework_values_are_errors_at_their_line)
{
	fw_clear_env();
	const char *msg = tl_script_error("import torch\n"
	                                  "from nvidia.dali import pipeline_def, fn\n"
	                                  "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                                  "def pipe():\n"
	                                  "    scale = torch.tensor([1.0, 2.0])\n"
	                                  "    return fn.random.uniform(range=scale)\n"
	                                  "p = pipe()\n",
	                                  DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:5:13: torch.tensor: dalic does not evaluate torch; of the "
	                      "framework it answers only the calls that decide sharding and "
	                      "devices") == msg,
	          "%s", msg);
	/* submodules for training code import as modules dalic does not model */
	dalic_graphdef_t *g =
	    tl_script_load("import os\n"
	                   "import torch\n"
	                   "import torch.nn as nn\n"
	                   "from torch.utils.data import Dataset\n"
	                   "from nvidia.dali import pipeline_def, fn\n"
	                   "class Net(nn.Module):\n"
	                   "    pass\n"
	                   "class Files(Dataset):\n"
	                   "    pass\n"
	                   "torch.backends.cudnn.benchmark = True\n"
	                   "local_rank = int(os.environ.get('LOCAL_RANK', 0))\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    return fn.random.uniform(range=[0, local_rank + 1])\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect_str_eq(tl_def_arg(g, 0, "range"), "[0.0, 1.0]");
	dalic_graphdef_free(g);
}

Test(script_frameworks, the_launcher_reader_directly)
{
	fw_clear_env();
	dalic_launcher_t l;
	ASSERT_OK(dalic_launcher_read(&l));
	cr_expect_null(l.name);
	cr_expect_eq(l.world, 1);
	setenv("HOROVOD_RANK", "3", 1);
	setenv("HOROVOD_SIZE", "4", 1);
	setenv("HOROVOD_LOCAL_RANK", "1", 1);
	setenv("HOROVOD_LOCAL_SIZE", "2", 1);
	ASSERT_OK(dalic_launcher_read(&l));
	cr_expect_str_eq(l.name, "horovodrun");
	cr_expect_eq(l.rank, 3);
	cr_expect_eq(l.local_world, 2);
	/* torchrun comes first when both are set */
	setenv("RANK", "0", 1);
	setenv("WORLD_SIZE", "2", 1);
	ASSERT_OK(dalic_launcher_read(&l));
	cr_expect_str_eq(l.name, "torchrun");
	cr_expect_eq(l.world, 2);
	setenv("LOCAL_RANK", "3", 1);
	setenv("LOCAL_WORLD_SIZE", "2", 1);
	EXPECT_STATUS(dalic_launcher_read(&l), DALIC_EINVAL);
	EXPECT_ERROR_HAS("local rank 3 is outside the node's 2 processes");
	fw_clear_env();
}
