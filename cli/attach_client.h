/*
 * The client side of the attach protocol (include/dalic_stats.h, docs/profiling.md): connect
 * to a served socket and read its snapshot lines. Shared by `dalic top` and `dalic tui
 * --attach`.
 */
#ifndef DALIC_CLI_ATTACH_CLIENT_H
#define DALIC_CLI_ATTACH_CLIENT_H

#include <stddef.h>

/* A connected socket, or -1 (the reason printed). */
int dalic_attach_connect(const char *path);

typedef struct dalic_attach_reader {
	char *buf;
	size_t len, cap;
} dalic_attach_reader_t;

/* The next line from fd into *line (malloc'd, without the newline), waiting at most wait_ms.
 * 1: a line; 0: the server closed; -1: an error (printed); -2: nothing within wait_ms. */
int dalic_attach_read_line(int fd, dalic_attach_reader_t *r, int wait_ms, char **line);
void dalic_attach_reader_free(dalic_attach_reader_t *r);

#endif
