/* Shared helpers of the workbench tests (see tests/testlib/tui.h). */
#include "tests/testlib/tui.h"

#include <stdio.h>
#include <stdlib.h>

tl_tui_t tl_tui_run(const char *pipeline, const char *keys, const char *args)
{
	tl_tui_t r;
	memset(&r, 0, sizeof r);
	snprintf(r.dir, sizeof r.dir, "/tmp/dalic_tui_XXXXXX");
	cr_assert_not_null(mkdtemp(r.dir));
	char path[128];
	snprintf(path, sizeof path, "%s/keys", r.dir);
	tl_write_file(path, keys, strlen(keys));
	tl_cmd_t c = tl_dalic(NULL, "tui %s --keys %s/keys --dump %s/dumps %s", pipeline, r.dir,
	                      r.dir, args ? args : "");
	r.status = c.status;
	r.out = c.out;
	for (r.num_dumps = 0; r.num_dumps < TL_TUI_MAX_DUMPS; r.num_dumps++) {
		snprintf(path, sizeof path, "%s/dumps/screen-%03d.txt", r.dir, r.num_dumps + 1);
		if (!(r.dumps[r.num_dumps] = tl_try_read_file(path, NULL)))
			break;
	}
	return r;
}

void tl_tui_free(tl_tui_t *r)
{
	tl_rmtree(r->dir);
	for (int i = 0; i < r->num_dumps; i++)
		free(r->dumps[i]);
	free(r->out);
}

const char *tl_tui_dump(const tl_tui_t *r, int n)
{
	cr_assert(n >= 1 && n <= r->num_dumps, "dump %d missing (%d written); output:\n%s", n,
	          r->num_dumps, r->out);
	return r->dumps[n - 1];
}

const char *tl_tui_line(const char *dump, int row, char *buf, size_t n)
{
	for (int i = 0; i < row && dump; i++) {
		dump = strchr(dump, '\n');
		if (dump)
			dump++;
	}
	buf[0] = 0;
	if (dump) {
		size_t len = strcspn(dump, "\n");
		snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), dump);
	}
	return buf;
}

void tl_tui_dump_size(const char *dump, int *w, int *h)
{
	*w = *h = 0;
	int cols = 0;
	for (const unsigned char *p = (const unsigned char *)dump; *p; p++) {
		if (*p == '\n') {
			if (cols > *w)
				*w = cols;
			cols = 0;
			(*h)++;
		} else if ((*p & 0xc0) != 0x80) {
			cols++;
		}
	}
}
