/*
 * `dalic top PATH`: watches a live process that publishes its stats on a Unix socket
 * (dalic_stats_serve, DALIC_STATS_SOCKET, or `dalic run --stats-socket PATH`), read-only.
 * Each line the server sends is one snapshot (include/dalic_stats.h: attach protocol);
 * the text view redraws on every one, --json passes the lines through, --once stops after
 * the first. Nothing here can slow the watched process: the server drops slow readers.
 */
#include "cli/attach_client.h"
#include "cli/cli.h"
#include "dalic_stats.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define TOP_WAIT_MS 10000 /* no snapshot for this long: the process is gone or stuck */

typedef struct top_args {
	const char *path;
	bool once, json;
	long count; /* stop after this many snapshots; 0 = until the process ends */
} top_args_t;

static int top_parse_args(int argc, char **argv, top_args_t *a)
{
	*a = (top_args_t){0};
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--once")) {
			a->once = true;
		} else if (!strcmp(argv[i], "--json")) {
			a->json = true;
		} else if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--count")) && i + 1 < argc) {
			char *end;
			a->count = strtol(argv[++i], &end, 10);
			if (*end || a->count <= 0) {
				fprintf(stderr, "dalic top: invalid count '%s'\n", argv[i]);
				return 2;
			}
		} else if (argv[i][0] != '-' && !a->path) {
			a->path = argv[i];
		} else {
			fprintf(stderr, "dalic top: unknown option '%s' (see dalic top --help)\n",
				argv[i]);
			return 2;
		}
	}
	if (!a->path) {
		fprintf(stderr, "dalic top: which socket? (dalic top PATH)\n");
		return 2;
	}
	if (a->once)
		a->count = 1;
	return 0;
}

static double top_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *top_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "-";
}

static const cJSON *top_obj(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static void top_print_operators(const cJSON *stats)
{
	printf("\n%-32s %-6s %10s %10s %10s %6s\n", "operator", "stage", "mean ms", "p99 ms",
	       "runs", "share");
	const cJSON *op;
	cJSON_ArrayForEach(op, top_obj(stats, "operators"))
	{
		const cJSON *t = top_obj(op, "time");
		printf("%-32s %-6s %10.3f %10.3f %10.0f %5.1f%%\n", top_str(op, "name"),
		       top_str(op, "stage"), top_num(t, "mean_ns") * 1e-6,
		       top_num(t, "p99_ns") * 1e-6, top_num(t, "count"),
		       top_num(op, "share") * 100);
	}
}

static void top_print_queues(const cJSON *stats)
{
	const cJSON *q;
	cJSON_ArrayForEach(q, top_obj(stats, "queues"))
	{
		const cJSON *present = top_obj(q, "present");
		if (cJSON_IsTrue(present))
			printf("queue %-3s: %.0f of %.0f slots, mean %.2f, max %.0f\n",
			       top_str(q, "name"), top_num(q, "occupancy"), top_num(q, "depth"),
			       top_num(q, "mean_occupancy"), top_num(q, "max_occupancy"));
	}
}

/* One snapshot as text. false: not a snapshot this version of dalic can read. */
static bool top_print_text(const cJSON *env, bool clear)
{
	const cJSON *stats = top_obj(env, "stats");
	if (top_num(env, "attach_version") != DALIC_STATS_ATTACH_VERSION || !cJSON_IsObject(stats))
		return false;
	if (clear)
		fputs("\033[H\033[2J", stdout);
	const cJSON *pipe = top_obj(stats, "pipeline");
	printf("dalic top  pid %.0f  snapshot %.0f  (stats schema %.0f)\n", top_num(env, "pid"),
	       top_num(env, "seq"), top_num(stats, "schema_version"));
	printf("executor: %s  batch %.0f  threads %.0f\n", top_str(pipe, "executor"),
	       top_num(pipe, "batch_size"), top_num(pipe, "num_threads"));
	printf("iterations: %.0f  samples: %.0f  %.1f samples/s  over %.1f s\n",
	       top_num(stats, "iterations"), top_num(stats, "samples"),
	       top_num(stats, "samples_per_second"), top_num(stats, "wall_seconds"));
	const cJSON *waits = top_obj(stats, "waits");
	const cJSON *verdict = top_obj(waits, "verdict");
	printf("verdict: %s: %s\n", top_str(verdict, "name"), top_str(verdict, "reason"));
	const cJSON *b = top_obj(stats, "bottleneck");
	const cJSON *bop = top_obj(b, "operator");
	if (cJSON_IsString(bop))
		printf("bottleneck: %s (%.1f%% of busy time)\n", bop->valuestring,
		       top_num(b, "operator_share") * 100);
	top_print_queues(stats);
	top_print_operators(stats);
	return true;
}

static int top_main(int argc, char **argv)
{
	top_args_t a;
	if (top_parse_args(argc, argv, &a))
		return 2;
	int fd = dalic_attach_connect(a.path);
	if (fd < 0)
		return 1;
	bool clear = !a.json && !a.once && isatty(STDOUT_FILENO);
	dalic_attach_reader_t r = {0};
	int rc = 0;
	long seen = 0;
	while (!a.count || seen < a.count) {
		char *line = NULL;
		int got = dalic_attach_read_line(fd, &r, TOP_WAIT_MS, &line);
		if (got == -2) {
			dalic_cli_fail(DALIC_EIO, "no snapshot for %d s", TOP_WAIT_MS / 1000);
			got = -1;
		}
		if (got <= 0) {
			if (got == 0 && !seen)
				rc = dalic_cli_fail(DALIC_EIO, "'%s' closed before any snapshot", a.path);
			else if (got < 0)
				rc = 1;
			break; /* 0 after snapshots: the process finished */
		}
		cJSON *env = cJSON_Parse(line);
		bool ok = env != NULL;
		if (ok && a.json)
			puts(line);
		else if (ok)
			ok = top_print_text(env, clear);
		cJSON_Delete(env);
		free(line);
		if (!ok) {
			rc = dalic_cli_fail(DALIC_EPARSE,
					    "'%s' sent something that is not a dalic stats snapshot "
					    "(attach version %d)",
					    a.path, DALIC_STATS_ATTACH_VERSION);
			break;
		}
		fflush(stdout);
		seen++;
	}
	dalic_attach_reader_free(&r);
	close(fd);
	if (!rc && dalic_cli_check_stdout())
		rc = 1;
	return rc ? 1 : 0;
}

DALIC_COMMAND(top) = {
	.name = "top",
	.summary = "watch the live stats of a process serving them on a Unix socket",
	.usage = "usage: dalic top PATH [--once] [--json] [-n COUNT]\n"
		 "  PATH: the socket of a process that called dalic_stats_serve or set\n"
		 "  DALIC_STATS_SOCKET=PATH (or `dalic run PIPELINE --stats-socket PATH`).\n"
		 "  Read-only: redraws on every snapshot until the process ends.\n"
		 "  --once      print one snapshot and exit\n"
		 "  --json      print each snapshot as one line of JSON (the attach protocol:\n"
		 "              {\"attach_version\", \"pid\", \"seq\", \"stats\": <dalic stats --json>})\n"
		 "  -n COUNT    stop after COUNT snapshots\n",
	.main = top_main,
};
