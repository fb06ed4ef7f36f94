/* The launcher's rank and world (see launcher.h). */
#include "engine/launcher.h"

#include "engine/error.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

static const struct {
	const char *name, *rank, *world, *local_rank, *local_world;
} launcher_vars[] = {
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"},
    {"horovodrun", "HOROVOD_RANK", "HOROVOD_SIZE", "HOROVOD_LOCAL_RANK", "HOROVOD_LOCAL_SIZE"},
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
     "OMPI_COMM_WORLD_LOCAL_SIZE"},
    {"PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
    {"SLURM", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"},
    {"paddle", "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_RANK_IN_NODE", NULL},
};

/* *out = the variable's value (def when unset). */
static int launcher_int(const char *var, int def, int *out)
{
	const char *s = var ? getenv(var) : NULL;
	*out = def;
	if (!s)
		return DALIC_OK;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 0 || v > INT_MAX)
		return dalic_fail(DALIC_EINVAL,
		                  "launcher environment: %s='%s' is not a non-negative integer", var,
		                  s);
	*out = (int)v;
	return DALIC_OK;
}

int dalic_launcher_read(dalic_launcher_t *out)
{
	*out = (dalic_launcher_t){.rank = 0, .world = 1, .local_rank = 0, .local_world = 1};
	for (size_t i = 0; i < sizeof launcher_vars / sizeof *launcher_vars; i++) {
		if (!getenv(launcher_vars[i].rank) || !getenv(launcher_vars[i].world))
			continue;
		out->name = launcher_vars[i].name;
		DALIC_TRY(launcher_int(launcher_vars[i].rank, 0, &out->rank));
		DALIC_TRY(launcher_int(launcher_vars[i].world, 1, &out->world));
		DALIC_TRY(launcher_int(launcher_vars[i].local_rank, 0, &out->local_rank));
		DALIC_TRY(launcher_int(launcher_vars[i].local_world, 1, &out->local_world));
		if (out->world < 1 || out->rank >= out->world)
			return dalic_fail(DALIC_EINVAL,
			                  "launcher environment (%s): rank %s=%d is outside world %s=%d",
			                  out->name, launcher_vars[i].rank, out->rank,
			                  launcher_vars[i].world, out->world);
		if (out->local_world < 1 || out->local_rank >= out->local_world) {
			/* a node-local size the launcher did not export: the node holds them all */
			if (out->local_world <= 1 && out->local_rank < out->world)
				out->local_world = out->world;
			else
				return dalic_fail(DALIC_EINVAL,
				                  "launcher environment (%s): local rank %d is outside "
				                  "the node's %d processes",
				                  out->name, out->local_rank, out->local_world);
		}
		return DALIC_OK;
	}
	return DALIC_OK;
}
