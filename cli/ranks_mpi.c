/*
 * `--ranks` under mpirun (ranks.h): every rank runs the command, builds its statistics
 * document, and rank 0 gathers them through MPI — MPI_Gather of the texts' lengths, then
 * MPI_Gatherv of the bytes — and prints the merged view (stats_merge.h). A rank that failed
 * sends nothing (length 0) instead of leaving the others waiting. Built with MPI when the
 * Makefile found Open MPI (DALIC_HAVE_MPI), like CUDA; without it --ranks says how to merge
 * through files instead.
 */
#include "cli/cli.h"
#include "cli/ranks.h"
#include "cli/stats_merge.h"

#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_MPI
#include <mpi.h>

/* Rank 0: the merged documents of the gathered texts (lens[i] bytes each at offs[i]). */
static int rmpi_merge(const char *all, const int *lens, const int *offs, int world, bool json)
{
	dalic_merge_set_t set = {0};
	int rc = DALIC_OK, failed = 0;
	for (int i = 0; !rc && i < world; i++) {
		if (!lens[i]) {
			fprintf(stderr, "dalic: rank %d failed (its error is above); merging the others\n",
			        i);
			failed++;
			continue;
		}
		char *text = strndup(all + offs[i], (size_t)lens[i]);
		char what[64];
		snprintf(what, sizeof what, "rank %d's statistics", i);
		rc = text ? dalic_merge_add_text(&set, text, what) : DALIC_ENOMEM;
		free(text);
	}
	if (!rc && !set.num)
		rc = dalic_cli_fail(DALIC_EINVAL, "every rank failed: nothing to merge");
	if (!rc)
		rc = dalic_merge_finish(&set);
	cJSON *m = rc ? NULL : dalic_merge_analyze(&set, DALIC_MERGE_TOLERANCE);
	if (!rc && !m)
		rc = dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	if (m && json) {
		char *out = cJSON_Print(m);
		if (out)
			puts(out);
		free(out);
	} else if (m) {
		dalic_merge_print(m, stdout);
	}
	cJSON_Delete(m);
	dalic_merge_free(&set);
	return rc ? 1 : failed ? 1 : 0;
}

int dalic_cli_ranks_run(int argc, char **argv, dalic_cli_rank_body_fn body, bool json)
{
	int provided;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return dalic_cli_fail(1, "--ranks: MPI_Init failed (run under mpirun or srun)");
	int rank, world;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &world);
	dalic_cli_rank_t me = {.rank = rank, .world = world, .local_rank = -1, .launcher = "MPI"};
	cJSON *doc = NULL;
	int status = body(argc, argv, &me, &doc);
	char *text = doc ? cJSON_PrintUnformatted(doc) : NULL;
	cJSON_Delete(doc);
	size_t n = text ? strlen(text) : 0;
	int len = n < (size_t)1 << 24 ? (int)n : 0; /* over 16 MiB: not a statistics document */
	int *lens = rank ? NULL : calloc((size_t)world, sizeof *lens);
	int *offs = rank ? NULL : calloc((size_t)world, sizeof *offs);
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	char *all = NULL;
	if (!rank) {
		size_t total = 0; /* documents are kilobytes: far from INT_MAX together */
		for (int i = 0; i < world; i++) {
			offs[i] = (int)total;
			total += (size_t)lens[i];
		}
		all = malloc(total + 1);
	}
	MPI_Gatherv(text, len, MPI_CHAR, all, lens, offs, MPI_CHAR, 0, MPI_COMM_WORLD);
	free(text);
	if (!rank) {
		int merged = rmpi_merge(all, lens, offs, world, json);
		status = status ? status : merged;
	}
	free(all);
	free(lens);
	free(offs);
	MPI_Finalize();
	return status;
}

#else

int dalic_cli_ranks_run(int argc, char **argv, dalic_cli_rank_body_fn body, bool json)
{
	return dalic_cli_fail(2, "--ranks needs MPI, and this dalic was built without it "
	                         "(install libopenmpi-dev and rebuild); without MPI, run each rank "
	                         "with --stats-dir DIR and merge with dalic stats-merge DIR");
}

#endif
