/*
 * Rank and world from the launcher's environment, and reader sharding from them (ranks.h).
 * Launchers are asked in a fixed order; a later one that is set must agree with the first,
 * except SLURM's task variables, which describe the allocation that torchrun or mpirun may
 * run inside (one srun task per node starting several ranks) and so only count alone.
 */
#include "cli/ranks.h"
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct ranks_launcher {
	const char *name;
	const char *rank_var, *world_var, *local_var; /* local_var may be NULL */
} ranks_launcher_t;

static const ranks_launcher_t ranks_launchers[] = {
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"MPICH/PMI", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {"SLURM", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};
enum { RANKS_NUM_LAUNCHERS = sizeof ranks_launchers / sizeof ranks_launchers[0] };

/* A non-negative int variable: 1 when set and valid, 0 when unset, -1 (printed) when bad. */
static int ranks_env_int(const char *var, int *out)
{
	const char *v = getenv(var);
	if (!v)
		return 0;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < 0 || n > INT_MAX) {
		dalic_cli_fail(DALIC_EINVAL, "%s='%s' is not a non-negative integer", var, v);
		return -1;
	}
	*out = (int)n;
	return 1;
}

/* One launcher's variables: 1 when set (into *r), 0 when none is set, -1 (printed) when
 * malformed or incomplete. */
static int ranks_read_launcher(const ranks_launcher_t *l, dalic_cli_rank_t *r)
{
	int got_rank = ranks_env_int(l->rank_var, &r->rank);
	int got_world = ranks_env_int(l->world_var, &r->world);
	r->local_rank = -1;
	int got_local = l->local_var ? ranks_env_int(l->local_var, &r->local_rank) : 0;
	if (got_rank < 0 || got_world < 0 || got_local < 0)
		return -1;
	if (!got_rank && !got_world)
		return 0;
	if (!got_rank || !got_world) {
		dalic_cli_fail(DALIC_EINVAL, "%s: %s is set but %s is not (both are needed)", l->name,
		               got_rank ? l->rank_var : l->world_var,
		               got_rank ? l->world_var : l->rank_var);
		return -1;
	}
	if (r->world < 1 || r->rank >= r->world) {
		dalic_cli_fail(DALIC_EINVAL, "%s: %s=%d is not a rank of %s=%d", l->name, l->rank_var,
		               r->rank, l->world_var, r->world);
		return -1;
	}
	r->launcher = l->name;
	return 1;
}

int dalic_cli_rank_from_env(dalic_cli_rank_t *out)
{
	*out = (dalic_cli_rank_t){.rank = 0, .world = 1, .local_rank = -1};
	const ranks_launcher_t *first = NULL;
	for (int i = 0; i < RANKS_NUM_LAUNCHERS; i++) {
		const ranks_launcher_t *l = &ranks_launchers[i];
		dalic_cli_rank_t r;
		int got = ranks_read_launcher(l, &r);
		if (got < 0)
			return DALIC_EINVAL;
		if (!got || (first && !strcmp(l->name, "SLURM")))
			continue;
		if (!first) {
			first = l;
			*out = r;
		} else if (r.rank != out->rank || r.world != out->world) {
			return dalic_cli_fail(DALIC_EINVAL,
			                      "the launchers disagree: %s says rank %d of %d (%s, %s), "
			                      "%s says rank %d of %d (%s, %s)",
			                      first->name, out->rank, out->world, first->rank_var,
			                      first->world_var, l->name, r.rank, r.world, l->rank_var,
			                      l->world_var);
		}
	}
	return DALIC_OK;
}

static int ranks_parse_count(const char *flag, const char *v, int min, int *out)
{
	char *end;
	errno = 0;
	long n = v ? strtol(v, &end, 10) : 0;
	if (!v || !*v || *end || errno || n < min || n > INT_MAX)
		return dalic_cli_fail(DALIC_EINVAL, "invalid value '%s' for %s (an integer >= %d)",
		                      v ? v : "", flag, min);
	*out = (int)n;
	return DALIC_OK;
}

int dalic_cli_shard_parse(int argc, char **argv, int *i, dalic_cli_shard_opts_t *s,
                          bool *matched)
{
	const char *a = argv[*i];
	*matched = true;
	if (!strcmp(a, "--shard-from-env")) {
		s->from_env = true;
		return DALIC_OK;
	}
	static const char *const flags[] = {"--shard-id", "--num-shards"};
	for (int k = 0; k < 2; k++) {
		size_t n = strlen(flags[k]);
		if (strncmp(a, flags[k], n) || (a[n] && a[n] != '='))
			continue;
		const char *v = a[n] == '=' ? a + n + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
		return ranks_parse_count(flags[k], v, k, k ? &s->num_shards : &s->shard_id);
	}
	*matched = false;
	return DALIC_OK;
}

/* True when schema `name` has an argument `arg`. */
static bool ranks_schema_has(const char *name, const char *arg)
{
	int i = dalic_op_schema_find(name);
	dalic_op_schema_t sc;
	if (i < 0 || dalic_op_schema_get(i, &sc))
		return false;
	for (int k = 0; k < sc.num_args + sc.num_common_args; k++) {
		dalic_arg_info_t a;
		if (!dalic_op_schema_arg(i, k, &a) && !strcmp(a.name, arg))
			return true;
	}
	return false;
}

int dalic_cli_shard_resolve(dalic_cli_shard_opts_t *s)
{
	s->active = s->from_env || s->shard_id >= 0 || s->num_shards >= 0;
	if (!s->active)
		return DALIC_OK;
	dalic_cli_rank_t r = {.rank = 0, .world = 1};
	if (s->from_env && dalic_cli_rank_from_env(&r))
		return DALIC_EINVAL;
	s->id = s->shard_id >= 0 ? s->shard_id : r.rank;
	s->num = s->num_shards >= 0 ? s->num_shards : r.world;
	if (s->id >= s->num)
		return dalic_cli_fail(DALIC_EINVAL, "shard %d does not exist with %d shards (%s)",
		                      s->id, s->num,
		                      s->shard_id >= 0 ? "--shard-id" : "rank from the environment");
	return DALIC_OK;
}

int dalic_cli_shard_apply(const dalic_cli_shard_opts_t *s, dalic_pipeline_t *p)
{
	if (!s->active)
		return DALIC_OK;
	int readers = 0;
	for (int i = 0; i < dalic_pipeline_num_ops(p); i++) {
		dalic_op_t *op = dalic_pipeline_op(p, i);
		if (!ranks_schema_has(dalic_op_schema(op), "shard_id") ||
		    !ranks_schema_has(dalic_op_schema(op), "num_shards"))
			continue;
		int rc = dalic_op_set_int(op, "num_shards", s->num);
		if (rc || (rc = dalic_op_set_int(op, "shard_id", s->id)))
			return rc;
		readers++;
	}
	if (!readers)
		fprintf(stderr, "dalic: warning: shard %d of %d: the pipeline has no reader to "
		                "shard\n", s->id, s->num);
	return DALIC_OK;
}

void dalic_cli_rank_test_delay(int64_t samples)
{
	int want, us;
	dalic_cli_rank_t r;
	if (samples <= 0 || ranks_env_int("DALIC_TEST_DELAY_RANK", &want) != 1 ||
	    ranks_env_int("DALIC_TEST_DELAY_US", &us) != 1 || dalic_cli_rank_from_env(&r) ||
	    r.rank != want)
		return;
	int64_t ns = samples * (int64_t)us * 1000;
	struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
