/*
 * The deep-learning framework calls pipeline modules make to pick their shard and device
 * (docs/scripts-frameworks.md lists them): torch.distributed / torch.cuda, horovod.torch /
 * horovod.tensorflow / horovod.keras / horovod.mxnet, paddle.distributed / paddle.device.
 * Each is answered from the launcher's environment (engine/launcher.h) and the GPUs present;
 * any other attribute of these modules is an error naming it at its line, never a stand-in
 * value that would fail later. Framework submodules that only hold classes and functions
 * for training (torch.nn, torch.utils...) import as modules dalic does not model.
 */
#include "frontend/script/dali/sdfw.h"

#include "engine/device.h"
#include "engine/launcher.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pymod.h"

#include <stdio.h>
#include <string.h>

typedef struct sdfw_mod {
	const char *name;
	bool initialized; /* init_process_group() / hvd.init() ran */
} sdfw_mod_t;

static const pytype_t sdfw_mod_type;

static sdfw_mod_t *sdfw_mod(const pyval_t *v)
{
	return dalic_pyval_is(v, &sdfw_mod_type) ? v->host.data : NULL;
}

/* ---- answers -------------------------------------------------------------------------- */

static int sdfw_launcher(pyinterp_t *I, const pynode_t *at, dalic_launcher_t *l)
{
	int rc = dalic_launcher_read(l);
	if (!rc)
		return DALIC_OK;
	rc = dalic_pyeval_relocate(I, at, rc);
	I->keep_error = true; /* a broken launcher environment: stop here, do not guess */
	return rc;
}

/* the module a function was read from (builtin.data) */
static sdfw_mod_t *sdfw_self(const pyval_t *self)
{
	return sdfw_mod(self->builtin.data);
}

enum { SDFW_RANK, SDFW_WORLD, SDFW_LOCAL_RANK, SDFW_LOCAL_WORLD };

static int sdfw_launcher_value(pyinterp_t *I, const pynode_t *at, int which, pyval_t **out)
{
	dalic_launcher_t l;
	DALIC_TRY(sdfw_launcher(I, at, &l));
	int v = which == SDFW_RANK    ? l.rank
	        : which == SDFW_WORLD ? l.world
	        : which == SDFW_LOCAL_RANK ? l.local_rank
	                                   : l.local_world;
	PYEVAL_RET(dalic_pyval_int(I->a, v));
}

/* torch.distributed.get_rank() ... (group arguments do not change the answer) */
#define SDFW_LAUNCHER_FN(fname, which)                                                             \
	static int fname(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,   \
	                 pyval_t **out)                                                            \
	{                                                                                          \
		return sdfw_launcher_value(I, at, which, out);                                     \
	}
SDFW_LAUNCHER_FN(sdfw_rank, SDFW_RANK)
SDFW_LAUNCHER_FN(sdfw_world, SDFW_WORLD)
SDFW_LAUNCHER_FN(sdfw_local_rank, SDFW_LOCAL_RANK)

static int sdfw_true(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_true());
}

/* init_process_group(), hvd.init(), init_parallel_env(): the module is initialized */
static int sdfw_init(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	sdfw_self(self)->initialized = true;
	PYEVAL_RET(dalic_pyval_none());
}

/* barrier(), set_device(), shutdown(): nothing for one process to wait for or change */
static int sdfw_none(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_none());
}

/* torch.distributed.is_initialized(): the trainer that imports the module has initialized
 * the process group when a launcher started it */
static int sdfw_dist_initialized(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                 const pyargs_t *args, pyval_t **out)
{
	dalic_launcher_t l;
	DALIC_TRY(sdfw_launcher(I, at, &l));
	PYEVAL_RET(dalic_pyval_bool(l.name || sdfw_self(self)->initialized));
}

static int sdfw_gpu_available(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_bool(dalic_device_count() > 0));
}

static int sdfw_gpu_count(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_int(I->a, dalic_device_count()));
}

/* horovod: rank() and friends before hvd.init() fail as Horovod's do */
static int sdfw_hvd_check(pyinterp_t *I, const pynode_t *at, pyval_t *self)
{
	if (sdfw_self(self)->initialized)
		return DALIC_OK;
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "ValueError: Horovod has not been initialized; use hvd.init().");
}

#define SDFW_HVD_FN(fname, which)                                                                  \
	static int fname(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,   \
	                 pyval_t **out)                                                            \
	{                                                                                          \
		DALIC_TRY(sdfw_hvd_check(I, at, self));                                            \
		return sdfw_launcher_value(I, at, which, out);                                     \
	}
SDFW_HVD_FN(sdfw_hvd_rank, SDFW_RANK)
SDFW_HVD_FN(sdfw_hvd_size, SDFW_WORLD)
SDFW_HVD_FN(sdfw_hvd_local_rank, SDFW_LOCAL_RANK)
SDFW_HVD_FN(sdfw_hvd_local_size, SDFW_LOCAL_WORLD)

static int sdfw_hvd_initialized(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                const pyargs_t *args, pyval_t **out)
{
	PYEVAL_RET(dalic_pyval_bool(sdfw_self(self)->initialized));
}

/* paddle.device.get_device(): "gpu:<local rank>" with a GPU, "cpu" without */
static int sdfw_paddle_device(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	dalic_launcher_t l;
	DALIC_TRY(sdfw_launcher(I, at, &l));
	if (dalic_device_count() <= 0)
		PYEVAL_RET(dalic_pyval_cstr(I->a, "cpu"));
	const char *s = dalic_pyarena_printf(I->a, "gpu:%d", l.local_rank);
	PYEVAL_RET(s ? dalic_pyval_cstr(I->a, s) : NULL);
}

/* paddle.distributed.ParallelEnv(): rank, world_size / nranks, local_rank, dev_id */
static int sdfw_paddle_env(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	dalic_launcher_t l;
	DALIC_TRY(sdfw_launcher(I, at, &l));
	pyval_t *env = dalic_pymod_new(I, "paddle.distributed.ParallelEnv", false);
	static const char *names[] = {"rank", "world_size", "nranks", "local_rank", "dev_id",
	                              "device_id"};
	int vals[] = {l.rank, l.world, l.world, l.local_rank, l.local_rank, l.local_rank};
	for (int i = 0; env && i < 6; i++)
		if (dalic_pymod_set(I, env, names[i], dalic_pyval_int(I->a, vals[i])))
			env = NULL;
	PYEVAL_RET(env);
}

/* ---- the modules ---------------------------------------------------------------------- */

static const struct {
	const char *name; /* module.attribute */
	pycfn_t fn;
} sdfw_functions[] = {
    {"torch.distributed.is_available", sdfw_true},
    {"torch.distributed.is_initialized", sdfw_dist_initialized},
    {"torch.distributed.init_process_group", sdfw_init},
    {"torch.distributed.get_rank", sdfw_rank},
    {"torch.distributed.get_world_size", sdfw_world},
    {"torch.distributed.barrier", sdfw_none},
    {"torch.cuda.is_available", sdfw_gpu_available},
    {"torch.cuda.device_count", sdfw_gpu_count},
    {"torch.cuda.current_device", sdfw_local_rank},
    {"torch.cuda.set_device", sdfw_none},
    {"paddle.distributed.get_rank", sdfw_rank},
    {"paddle.distributed.get_world_size", sdfw_world},
    {"paddle.distributed.init_parallel_env", sdfw_none},
    {"paddle.distributed.ParallelEnv", sdfw_paddle_env},
    {"paddle.device.get_device", sdfw_paddle_device},
    {"paddle.device.is_compiled_with_cuda", sdfw_gpu_available},
    {"paddle.is_compiled_with_cuda", sdfw_gpu_available},
};

/* what every horovod framework module answers */
static const struct {
	const char *name;
	pycfn_t fn;
} sdfw_horovod[] = {
    {"init", sdfw_init},
    {"is_initialized", sdfw_hvd_initialized},
    {"rank", sdfw_hvd_rank},
    {"size", sdfw_hvd_size},
    {"local_rank", sdfw_hvd_local_rank},
    {"local_size", sdfw_hvd_local_size},
    {"shutdown", sdfw_none},
};

/* submodules for training code (classes, functions): modules dalic does not model */
static const char *const sdfw_training_modules[] = {
    "torch.nn",          "torch.utils",       "torch.optim",      "torch.backends",
    "torch.multiprocessing", "torch.autograd", "torch.jit",       "torch.onnx",
    "torch.amp",         "torch.hub",         "torch.distributions", "torch.profiler",
    "torch.cuda.amp",    "torch.distributed.algorithms", "torch.nn.parallel",
    "paddle.nn",         "paddle.io",         "paddle.optimizer", "paddle.vision",
    "paddle.static",     "paddle.fluid",      "horovod.common",
};

static bool sdfw_in(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static const pymodreg_t sdfw_table[];

/* one of the modules whose attributes dalic answers */
static bool sdfw_answered(const char *name)
{
	for (const pymodreg_t *r = sdfw_table; r->name; r++)
		if (!strcmp(r->name, name))
			return true;
	return false;
}

static int sdfw_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                        pyval_t **out)
{
	*out = NULL;
	if (!strncmp(name, "__", 2))
		return DALIC_OK; /* an AttributeError */
	const char *mod = sdfw_mod(v)->name;
	char *full = dalic_pyarena_printf(I->a, "%s.%s", mod, name);
	if (!full)
		return dalic_pyeval_oom(I, at);
	if (sdfw_answered(full) ||
	    sdfw_in(sdfw_training_modules,
	            sizeof sdfw_training_modules / sizeof *sdfw_training_modules, full))
		return dalic_pymod_get(I, at, full, out);
	for (size_t i = 0; i < sizeof sdfw_functions / sizeof *sdfw_functions; i++)
		if (!strcmp(sdfw_functions[i].name, full))
			PYEVAL_RET(dalic_pybi_make_self(I, name, sdfw_functions[i].fn, v));
	bool horovod = !strncmp(mod, "horovod.", 8);
	for (size_t i = 0; horovod && i < sizeof sdfw_horovod / sizeof *sdfw_horovod; i++)
		if (!strcmp(sdfw_horovod[i].name, name))
			PYEVAL_RET(dalic_pybi_make_self(I, name, sdfw_horovod[i].fn, v));
	return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
	                          "%s: dalic does not evaluate %s; of the framework it answers only "
	                          "the calls that decide sharding and devices (rank, world size, "
	                          "GPUs), listed in docs/scripts-frameworks.md",
	                          full, mod);
}

static void sdfw_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "<module '%s' (rank and device answers by dalic)>", sdfw_mod(v)->name);
}

bool dalic_sdfw_is_module(const pyval_t *v)
{
	return sdfw_mod(v) != NULL;
}

static const pytype_t sdfw_mod_type = {
    .name = "module",
    .format = sdfw_format,
    .getattr = sdfw_getattr,
};

static int sdfw_open(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	sdfw_mod_t *m = dalic_pyarena_alloc(I->a, sizeof *m);
	if (!m || !(m->name = dalic_pyarena_strdup(I->a, name)))
		return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_host(I->a, &sdfw_mod_type, m));
}

static const pymodreg_t sdfw_table[] = {
    {"torch", sdfw_open},
    {"torch.distributed", sdfw_open},
    {"torch.cuda", sdfw_open},
    {"horovod", sdfw_open},
    {"horovod.torch", sdfw_open},
    {"horovod.tensorflow", sdfw_open},
    {"horovod.keras", sdfw_open},
    {"horovod.mxnet", sdfw_open},
    {"horovod.tensorflow.keras", sdfw_open},
    {"paddle", sdfw_open},
    {"paddle.distributed", sdfw_open},
    {"paddle.device", sdfw_open},
    {NULL, NULL},
};

int dalic_sdfw_open(pyinterp_t *I)
{
	return dalic_pymod_preload(I, sdfw_table);
}
