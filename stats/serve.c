/*
 * The stats server (tracers.h): one thread, a listening Unix socket and its clients, all
 * non-blocking. Every interval the thread takes a snapshot (the collector's readers never
 * touch live engine state), wraps it as one line of JSON and queues it for each client.
 * A client still holding an unsent line when the next one is due skips that one; a client
 * that took nothing for ten intervals (at least a second) is dropped. Nothing here ever waits on a
 * client, and the pipeline's threads never wait on this thread.
 */
#include "stats/tracers.h"

#include "engine/clock.h"
#include "stats/collector.h"
#include "engine/error.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define DALIC_SERVE_MAX_CLIENTS 16

typedef struct serve_client {
	int fd;
	char *buf; /* the line being sent, NULL when idle */
	size_t len, sent;
	int64_t last_progress; /* last time it took bytes, or connected */
} serve_client_t;

struct dalic_stats_server {
	dalic_stats_t *stats;
	char *path;
	int listen_fd;
	int wake[2]; /* a pipe: stop() writes, the thread polls it */
	int interval_ms;
	int64_t stall_ns; /* a client that took nothing for this long is dropped */
	pthread_t thread;
	serve_client_t clients[DALIC_SERVE_MAX_CLIENTS];
	int num_clients;
	int64_t seq;
	atomic_llong dropped;
};

static void serve_drop(dalic_stats_server_t *srv, int i, bool slow)
{
	serve_client_t *c = &srv->clients[i];
	close(c->fd);
	free(c->buf);
	srv->clients[i] = srv->clients[--srv->num_clients];
	if (slow)
		atomic_fetch_add(&srv->dropped, 1);
}

/* The attach envelope around the stats document, as one line. New string or NULL. */
static char *serve_make_line(dalic_stats_server_t *srv)
{
	/* Nothing before the layout exists: the executor's first hook makes it, after the build.
	 * Earlier, a snapshot would read the graph while another thread builds it (TSan). */
	if (!atomic_load_explicit(&srv->stats->layout, memory_order_acquire))
		return NULL;
	dalic_stats_snapshot_t *snap = NULL;
	if (dalic_stats_snapshot(srv->stats, &snap))
		return NULL;
	char *doc = dalic_stats_json(snap);
	dalic_stats_snapshot_free(snap);
	cJSON *stats = doc ? cJSON_Parse(doc) : NULL;
	free(doc);
	cJSON *env = stats ? cJSON_CreateObject() : NULL;
	if (!env) {
		cJSON_Delete(stats);
		return NULL;
	}
	cJSON_AddNumberToObject(env, "attach_version", DALIC_STATS_ATTACH_VERSION);
	cJSON_AddNumberToObject(env, "pid", (double)getpid());
	cJSON_AddNumberToObject(env, "seq", (double)srv->seq++);
	cJSON_AddItemToObject(env, "stats", stats);
	char *text = cJSON_PrintUnformatted(env);
	cJSON_Delete(env);
	if (!text)
		return NULL;
	size_t n = strlen(text);
	char *line = realloc(text, n + 2);
	if (!line) {
		free(text);
		return NULL;
	}
	memcpy(line + n, "\n", 2);
	return line;
}

/* Sends what the socket takes now. false: the client is gone. */
static bool serve_flush(serve_client_t *c, int64_t now)
{
	while (c->buf && c->sent < c->len) {
		ssize_t n = send(c->fd, c->buf + c->sent, c->len - c->sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n <= 0)
			return false;
		c->sent += (size_t)n;
		c->last_progress = now;
	}
	free(c->buf);
	c->buf = NULL;
	return true;
}

static void serve_broadcast(dalic_stats_server_t *srv)
{
	if (srv->num_clients == 0)
		return;
	char *line = serve_make_line(srv);
	if (!line)
		return; /* not running yet, or out of memory: try again next interval */
	size_t len = strlen(line);
	for (int i = 0; i < srv->num_clients; i++) {
		serve_client_t *c = &srv->clients[i];
		if (c->buf)
			continue; /* still sending the last one: it gets a newer one later */
		c->buf = malloc(len);
		if (c->buf) {
			memcpy(c->buf, line, len);
			c->len = len;
			c->sent = 0;
		}
	}
	free(line);
}

static void serve_accept(dalic_stats_server_t *srv, int64_t now)
{
	int fd;
	while ((fd = accept4(srv->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		if (srv->num_clients == DALIC_SERVE_MAX_CLIENTS) {
			close(fd);
			continue;
		}
		srv->clients[srv->num_clients++] = (serve_client_t){.fd = fd, .last_progress = now};
	}
}

/* Flushes every client; drops the gone and the stalled. */
static void serve_service(dalic_stats_server_t *srv, int64_t now)
{
	for (int i = srv->num_clients - 1; i >= 0; i--) {
		serve_client_t *c = &srv->clients[i];
		if (!serve_flush(c, now))
			serve_drop(srv, i, false);
		else if (c->buf && now - c->last_progress > srv->stall_ns)
			serve_drop(srv, i, true);
	}
}

static void *serve_thread(void *arg)
{
	dalic_stats_server_t *srv = arg;
	int64_t next = dalic_clock_ns();
	for (;;) {
		struct pollfd fds[2 + DALIC_SERVE_MAX_CLIENTS];
		fds[0] = (struct pollfd){.fd = srv->wake[0], .events = POLLIN};
		fds[1] = (struct pollfd){.fd = srv->listen_fd, .events = POLLIN};
		for (int i = 0; i < srv->num_clients; i++)
			fds[2 + i] = (struct pollfd){
			    .fd = srv->clients[i].fd,
			    .events = (short)(srv->clients[i].buf ? POLLOUT : POLLIN)};
		int64_t now = dalic_clock_ns();
		int wait_ms = next > now ? (int)((next - now) / 1000000) + 1 : 0;
		if (poll(fds, (nfds_t)(2 + srv->num_clients), wait_ms) < 0 && errno != EINTR)
			break;
		if (fds[0].revents)
			break;
		now = dalic_clock_ns();
		/* a client with nothing to take that became readable sent data or hung up */
		for (int i = srv->num_clients - 1; i >= 0; i--) {
			char junk[256];
			if (!srv->clients[i].buf && (fds[2 + i].revents & (POLLIN | POLLHUP)) &&
			    recv(srv->clients[i].fd, junk, sizeof junk, MSG_DONTWAIT) == 0)
				serve_drop(srv, i, false);
		}
		serve_accept(srv, now);
		if (now >= next) {
			serve_broadcast(srv);
			next = now + (int64_t)srv->interval_ms * 1000000;
		}
		serve_service(srv, now);
	}
	return NULL;
}

static void serve_free(dalic_stats_server_t *srv)
{
	while (srv->num_clients)
		serve_drop(srv, srv->num_clients - 1, false);
	if (srv->listen_fd >= 0) {
		close(srv->listen_fd);
		unlink(srv->path);
	}
	for (int i = 0; i < 2; i++)
		if (srv->wake[i] >= 0)
			close(srv->wake[i]);
	free(srv->path);
	free(srv);
}

/* Binds path; a socket file nobody answers on is stale (its process died) and replaced. */
static int serve_bind(dalic_stats_server_t *srv, const struct sockaddr_un *addr)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		if (!bind(srv->listen_fd, (const struct sockaddr *)addr, sizeof *addr))
			return listen(srv->listen_fd, 8)
				   ? dalic_fail(DALIC_EIO, "stats socket '%s': listen: %s",
						srv->path, strerror(errno))
				   : DALIC_OK;
		if (errno != EADDRINUSE || attempt)
			break;
		int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		bool live = probe >= 0 &&
			    !connect(probe, (const struct sockaddr *)addr, sizeof *addr);
		if (probe >= 0)
			close(probe);
		if (live)
			return dalic_fail(DALIC_ESTATE,
					  "stats socket '%s' is served by a live process",
					  srv->path);
		unlink(srv->path);
	}
	return dalic_fail(DALIC_EIO, "stats socket '%s': bind: %s", srv->path, strerror(errno));
}

int dalic_stats_server_start(dalic_stats_t *s, const char *path, int interval_ms,
			     dalic_stats_server_t **out)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof addr.sun_path)
		return dalic_fail(DALIC_EINVAL, "stats socket path '%s' is longer than %zu bytes",
				  path, sizeof addr.sun_path - 1);
	strcpy(addr.sun_path, path);
	dalic_stats_server_t *srv = calloc(1, sizeof *srv);
	if (!srv || !(srv->path = strdup(path))) {
		free(srv);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	srv->stats = s;
	srv->interval_ms = interval_ms;
	srv->stall_ns = (int64_t)(interval_ms > 100 ? interval_ms : 100) * 10 * 1000000;
	srv->wake[0] = srv->wake[1] = -1;
	srv->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int rc = srv->listen_fd < 0 ? dalic_fail(DALIC_EIO, "stats socket: %s", strerror(errno))
				    : serve_bind(srv, &addr);
	if (rc) {
		if (srv->listen_fd >= 0)
			close(srv->listen_fd);
		srv->listen_fd = -1; /* the file is not ours: leave it */
	}
	if (!rc && pipe2(srv->wake, O_CLOEXEC))
		rc = dalic_fail(DALIC_EIO, "stats socket: pipe: %s", strerror(errno));
	if (!rc && pthread_create(&srv->thread, NULL, serve_thread, srv))
		rc = dalic_fail(DALIC_EIO, "stats socket: cannot start the server thread");
	if (rc) {
		serve_free(srv);
		return rc;
	}
	*out = srv;
	return DALIC_OK;
}

void dalic_stats_server_stop(dalic_stats_server_t *srv)
{
	if (!srv)
		return;
	ssize_t n;
	do
		n = write(srv->wake[1], "x", 1);
	while (n < 0 && errno == EINTR);
	pthread_join(srv->thread, NULL);
	serve_free(srv);
}

int64_t dalic_stats_server_dropped(const dalic_stats_server_t *srv)
{
	return atomic_load(&((dalic_stats_server_t *)srv)->dropped);
}
