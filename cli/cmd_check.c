/*
 * `dalic check PATH...`: the pipeline linter. Each PATH is a pipeline module (or a .pb
 * file), or a directory whose .py files are checked in name order, subdirectories included.
 * For every module: one line per problem (dalic_check_module: what DALI would refuse, what
 * would bite later, at file:line:col), then one line for the module; at the end `N of M
 * load`: the modules whose every pipeline loads and builds as DALI would. Exit status 0
 * when all load, 1 otherwise, 2 on bad usage.
 */
#include "cli/cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct check_list {
	char **v;
	int n, cap;
} check_list_t;

static int check_push(check_list_t *l, const char *path)
{
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 16;
		char **v = realloc(l->v, sizeof *v * (size_t)cap);
		if (!v)
			return dalic_cli_fail(DALIC_ENOMEM, "out of memory");
		l->v = v;
		l->cap = cap;
	}
	if (!(l->v[l->n] = strdup(path)))
		return dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	l->n++;
	return DALIC_OK;
}

static int check_by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .py files under dir, depth first, in name order. */
static int check_walk(check_list_t *l, const char *dir, int depth)
{
	if (depth > 32)
		return dalic_cli_fail(DALIC_EINVAL, "%s: directories nest too deeply", dir);
	DIR *d = opendir(dir);
	if (!d)
		return dalic_cli_fail(DALIC_EIO, "cannot read directory '%s'", dir);
	check_list_t here = {0};
	int rc = DALIC_OK;
	for (struct dirent *e; !rc && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		rc = check_push(&here, path);
	}
	closedir(d);
	if (here.n)
		qsort(here.v, (size_t)here.n, sizeof *here.v, check_by_name);
	for (int i = 0; !rc && i < here.n; i++) {
		struct stat st;
		const char *p = here.v[i], *dot = strrchr(p, '.');
		if (stat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = check_walk(l, p, depth + 1);
		else if (dot && !strcmp(dot, ".py"))
			rc = check_push(l, p);
	}
	for (int i = 0; i < here.n; i++)
		free(here.v[i]);
	free(here.v);
	return rc;
}

static int check_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	check_list_t paths = {0};
	int rc = DALIC_OK;
	/* the shared parser takes the flags and the first PATH; the other PATHs stay in argv */
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	for (int i = 0; !rc && i < argc; i++) {
		const char *path = i ? argv[i] : o.path;
		if (!path)
			continue;
		if (path[0] == '-') {
			fprintf(stderr, "dalic check: unknown option '%s'\n", path);
			rc = 2;
			break;
		}
		struct stat st;
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			rc = check_walk(&paths, path, 0);
		else
			rc = check_push(&paths, path);
	}
	if (!rc && !paths.n) {
		fputs("dalic check: no PATH given\n", stderr);
		rc = 2;
	}
	/* what the modules print is not part of the report */
	FILE *quiet = fopen("/dev/null", "w");
	dalic_set_script_output(quiet ? quiet : stderr);
	int loaded = 0;
	for (int i = 0; !rc && i < paths.n; i++) {
		int pipes = 0, clean = 0;
		rc = dalic_check_module(paths.v[i], &o.override, stdout, &pipes, &clean);
		if (rc)
			break;
		if (pipes && clean == pipes) {
			loaded++;
			printf("%s: loads (%d pipeline%s)\n", paths.v[i], pipes, pipes == 1 ? "" : "s");
		} else if (pipes) {
			printf("%s: %d of %d pipelines load\n", paths.v[i], clean, pipes);
		} else {
			printf("%s: does not load\n", paths.v[i]);
		}
	}
	if (!rc)
		printf("%d of %d load\n", loaded, paths.n);
	dalic_set_script_output(NULL);
	if (quiet)
		fclose(quiet);
	int total = paths.n;
	for (int i = 0; i < paths.n; i++)
		free(paths.v[i]);
	free(paths.v);
	if (rc == 2)
		return 2;
	if (rc)
		return dalic_cli_error(rc), 1;
	if (dalic_cli_check_stdout())
		return 1;
	return loaded == total ? 0 : 1;
}

DALIC_COMMAND(check) = {
    .name = "check",
    .summary = "the pipeline linter: what DALI would refuse or what would bite later",
    .usage = "usage: dalic check PATH... [pipeline flags]\n"
             "  Loads every pipeline of each module (a .py file, or every .py under a\n"
             "  directory) as DALI would import and build it, and reports at file:line:col\n"
             "  what DALI would refuse (load and graph errors, gpu operators or .gpu() in a\n"
             "  CPU-only pipeline) and what would bite later (operators that cannot be\n"
             "  serialized, an external source with fewer batches than the prefetch depth,\n"
             "  random operators without a seed); then one line per module and `N of M\n"
             "  load`. Exit status 1 when a module does not load.\n",
    .pipeline_flags = true,
    .main = check_main,
};
