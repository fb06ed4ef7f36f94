/*
 * Attach (dalic_stats_serve, DALIC_STATS_SOCKET): a client reads three snapshots of a
 * running pipeline, each a versioned line with the stats document and a growing sequence;
 * a client that hangs up or never reads leaves the pipeline running and the other clients
 * served (the one that never reads is dropped); a live socket is not taken over, a stale
 * one is; the socket file goes with the pipeline.
 */
#include "tests/testlib.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

TestSuite(stats_serve, .timeout = 60);

static dalic_pipeline_t *serve_pipeline(void)
{
	dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[2], 8, false);
	dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
	ASSERT_OK(dalic_op_set_name(coin, "coin"));
	ASSERT_OK(dalic_pipeline_add_output(p, "coin", NULL));
	return p;
}

static int serve_connect(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert(fd >= 0);
	cr_assert_eq(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0, "connect %s: %s",
		     path, strerror(errno));
	return fd;
}

/* Reads one line (up to 1 MiB) within 10 s; runs the pipeline meanwhile when p. */
static cJSON *serve_read_snapshot(int fd, dalic_pipeline_t *p)
{
	static char buf[1 << 20];
	size_t len = 0;
	for (int waited = 0; waited < 10000;) {
		if (p)
			ASSERT_OK(dalic_pipeline_run(p));
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 5) == 0) {
			waited += 5;
			continue;
		}
		ssize_t n = read(fd, buf + len, 1); /* one byte: stop exactly at the newline */
		cr_assert(n == 1, "the server closed or failed");
		if (buf[len] == '\n') {
			buf[len] = 0;
			cJSON *doc = cJSON_Parse(buf);
			cr_assert(doc, "a line that is not JSON: %.200s", buf);
			return doc;
		}
		cr_assert(++len < sizeof buf);
	}
	cr_assert_fail("no snapshot within 10 s");
	return NULL;
}

static double serve_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	cr_assert(cJSON_IsNumber(v), "missing number '%s'", key);
	return v->valuedouble;
}

Test(stats_serve, a_client_reads_three_growing_snapshots)
{
	setenv("DALIC_STATS_INTERVAL_MS", "20", 1);
	const char *path = tl_tmp_path("serve.sock");
	dalic_pipeline_t *p = serve_pipeline();
	ASSERT_OK(dalic_stats_serve(p, path));
	EXPECT_STATUS(dalic_stats_serve(p, path), DALIC_ESTATE);
	int fd = serve_connect(path);
	double last_seq = -1, last_iterations = -1;
	for (int k = 0; k < 3; k++) {
		cJSON *env = serve_read_snapshot(fd, p);
		cr_expect_eq(serve_num(env, "attach_version"), DALIC_STATS_ATTACH_VERSION);
		cr_expect_eq(serve_num(env, "pid"), (double)getpid());
		double seq = serve_num(env, "seq");
		cr_expect_gt(seq, last_seq, "snapshot %d", k);
		const cJSON *stats = cJSON_GetObjectItemCaseSensitive(env, "stats");
		cr_expect_eq(serve_num(stats, "schema_version"), DALIC_STATS_SCHEMA_VERSION);
		double its = serve_num(stats, "iterations");
		double samples = serve_num(stats, "samples"); /* counters a few events apart */
		cr_expect(fmod(samples, 8) == 0 && fabs(samples - its * 8) <= 8,
			  "%g samples in %g iterations of 8", samples, its);
		cr_expect_geq(its, last_iterations, "snapshot %d", k);
		last_seq = seq;
		last_iterations = its;
		cJSON_Delete(env);
	}
	cr_expect_gt(last_iterations, 0, "the pipeline ran while we read");
	close(fd);
	struct stat st;
	cr_expect_eq(stat(path, &st), 0, "the socket exists while served");
	dalic_pipeline_destroy(p);
	cr_expect_neq(stat(path, &st), 0, "the socket is removed with the pipeline");
}

Test(stats_serve, gone_and_hung_clients_never_stall_the_pipeline)
{
	setenv("DALIC_STATS_INTERVAL_MS", "20", 1);
	const char *path = tl_tmp_path("serve-hung.sock");
	dalic_pipeline_t *p = serve_pipeline();
	ASSERT_OK(dalic_stats_serve(p, path));
	int hung = serve_connect(path); /* never reads */
	int quitter = serve_connect(path);
	cJSON_Delete(serve_read_snapshot(quitter, p));
	close(quitter); /* the next send to it fails: no SIGPIPE, no stall */
	int good = serve_connect(path);
	/* iterations until the server gives up the hung client: its socket buffer fills, and a
	 * second without progress (ten 20 ms intervals, at least one second) drops it */
	int64_t t0 = dalic_clock_ns();
	int runs = 0;
	bool dropped = false;
	/* at least 128 runs either way: under TSan 64 runs can outlast the drop second */
	while ((!dropped || runs < 128) && dalic_clock_ns() - t0 < 20000000000LL) {
		ASSERT_OK(dalic_pipeline_run(p));
		if (++runs % 64)
			continue;
		cJSON_Delete(serve_read_snapshot(good, NULL));
		struct pollfd pfd = {.fd = hung, .events = POLLRDHUP}; /* no read: stay hung */
		dropped |= poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLRDHUP | POLLHUP));
	}
	cr_expect(dropped, "the hung client was never dropped");
	cr_expect_gt(runs, 100, "the pipeline kept running: %d iterations", runs);
	cJSON *env = serve_read_snapshot(good, p);
	cr_expect_gt(serve_num(cJSON_GetObjectItemCaseSensitive(env, "stats"), "iterations"), 100);
	cJSON_Delete(env);
	/* what it was sent before is still there, then end of file */
	static char sink[1 << 16];
	ssize_t n;
	while ((n = read(hung, sink, sizeof sink)) > 0) {
	}
	cr_expect_eq(n, 0, "end of file: the server closed the hung client");
	close(hung);
	close(good);
	dalic_pipeline_destroy(p);
}

Test(stats_serve, a_live_socket_is_refused_a_stale_one_replaced)
{
	const char *path = tl_tmp_path("serve-live.sock");
	dalic_pipeline_t *a = serve_pipeline(), *b = serve_pipeline();
	ASSERT_OK(dalic_stats_serve(a, path));
	EXPECT_STATUS(dalic_stats_serve(b, path), DALIC_ESTATE);
	EXPECT_ERROR_HAS("served by a live process");
	dalic_pipeline_destroy(b);
	dalic_pipeline_destroy(a);
	/* a socket file left by a process that died: nobody listens */
	int stale = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	strcpy(addr.sun_path, path);
	cr_assert_eq(bind(stale, (struct sockaddr *)&addr, sizeof addr), 0);
	close(stale);
	dalic_pipeline_t *c = serve_pipeline();
	ASSERT_OK(dalic_stats_serve(c, path));
	int fd = serve_connect(path);
	cJSON_Delete(serve_read_snapshot(fd, c));
	close(fd);
	dalic_pipeline_destroy(c);
}

Test(stats_serve, the_environment_serves_and_a_second_pipeline_goes_on)
{
	setenv("DALIC_STATS_INTERVAL_MS", "20", 1);
	const char *path = tl_tmp_path("serve-env.sock");
	setenv("DALIC_STATS_SOCKET", path, 1);
	dalic_pipeline_t *p = serve_pipeline(), *q = serve_pipeline();
	ASSERT_OK(dalic_pipeline_build(p));
	ASSERT_OK(dalic_pipeline_build(q)); /* the socket is taken: q runs unserved */
	unsetenv("DALIC_STATS_SOCKET");
	cr_expect_not_null(dalic_tracers_stats(p));
	int fd = serve_connect(path);
	cJSON *env = serve_read_snapshot(fd, p);
	cr_expect_eq(serve_num(env, "attach_version"), DALIC_STATS_ATTACH_VERSION);
	cJSON_Delete(env);
	ASSERT_OK(dalic_pipeline_run(q));
	close(fd);
	dalic_pipeline_destroy(q);
	dalic_pipeline_destroy(p);
}
