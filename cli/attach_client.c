/* Attach protocol client: connect and read lines (cli/attach_client.h). */
#include "cli/attach_client.h"

#include "cli/cli.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int dalic_attach_connect(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof addr.sun_path)
		return dalic_cli_fail(DALIC_EINVAL, "socket path '%s' is too long", path), -1;
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !connect(fd, (struct sockaddr *)&addr, sizeof addr))
		return fd;
	dalic_cli_fail(DALIC_EIO, "cannot connect to '%s': %s (is a pipeline serving it?)", path,
		       strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int dalic_attach_read_line(int fd, dalic_attach_reader_t *r, int wait_ms, char **line)
{
	for (;;) {
		char *nl = r->len ? memchr(r->buf, '\n', r->len) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - r->buf);
			*line = malloc(n + 1);
			if (!*line)
				return dalic_cli_fail(DALIC_ENOMEM, "out of memory"), -1;
			memcpy(*line, r->buf, n);
			(*line)[n] = 0;
			memmove(r->buf, nl + 1, r->len - n - 1);
			r->len -= n + 1;
			return 1;
		}
		if (r->cap - r->len < 65536) {
			char *b = realloc(r->buf, r->cap * 2 + 65536);
			if (!b)
				return dalic_cli_fail(DALIC_ENOMEM, "out of memory"), -1;
			r->buf = b;
			r->cap = r->cap * 2 + 65536;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int ready = poll(&p, 1, wait_ms);
		if (ready == 0)
			return -2;
		ssize_t got = ready < 0 ? -1 : read(fd, r->buf + r->len, r->cap - r->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return dalic_cli_fail(DALIC_EIO, "reading the socket: %s", strerror(errno)), -1;
		if (got == 0)
			return 0;
		r->len += (size_t)got;
	}
}

void dalic_attach_reader_free(dalic_attach_reader_t *r)
{
	free(r->buf);
	*r = (dalic_attach_reader_t){0};
}
