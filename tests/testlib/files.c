/* The shared test library: temporary files and directories, running the dalic command
 * (see tests/testlib.h). */
#include "tests/testlib.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tl_tmpdir_buf[64];

const char *tl_tmpdir(void)
{
	if (!tl_tmpdir_buf[0]) {
		snprintf(tl_tmpdir_buf, sizeof tl_tmpdir_buf, "/tmp/dalic_test_XXXXXX");
		cr_assert_not_null(mkdtemp(tl_tmpdir_buf), "mkdtemp: %s", strerror(errno));
	}
	return tl_tmpdir_buf;
}

void tl_tmpdir_remove(void)
{
	if (tl_tmpdir_buf[0])
		tl_rmtree(tl_tmpdir_buf);
	tl_tmpdir_buf[0] = 0;
}

const char *tl_tmp_path(const char *name)
{
	static char buf[8][320];
	static int k;
	char *b = buf[k++ % 8];
	snprintf(b, sizeof buf[0], "%s/%s", tl_tmpdir(), name);
	return b;
}

static int tl_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(path);
}

void tl_rmtree(const char *path)
{
	nftw(path, tl_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void *tl_try_read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0, got;
	char *d = malloc(cap);
	cr_assert_not_null(d);
	while ((got = fread(d + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (len + 1 == cap) {
			d = realloc(d, cap *= 2);
			cr_assert_not_null(d);
		}
	}
	cr_assert(!ferror(f), "cannot read %s", path);
	fclose(f);
	d[len] = 0;
	if (n)
		*n = len;
	return d;
}

void *tl_read_file(const char *path, size_t *n)
{
	void *d = tl_try_read_file(path, n);
	cr_assert_not_null(d, "cannot open %s (tests run from the repository root): %s", path,
	                   strerror(errno));
	return d;
}

void tl_write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "cannot create %s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(data, 1, n, f), n, "cannot write %s", path);
	cr_assert_eq(fclose(f), 0, "cannot write %s", path);
}

static void tl_make_temp(char *path, size_t size, const char *tag, const char *suffix,
                         const char *text)
{
	snprintf(path, size, "/tmp/dalic_%s_XXXXXX%s", tag, suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	cr_assert(fd >= 0, "cannot create %s: %s", path, strerror(errno));
	size_t n = strlen(text);
	cr_assert_eq(write(fd, text, n), (ssize_t)n, "cannot write %s", path);
	cr_assert_eq(close(fd), 0);
}

void tl_write_text(const char *path, const char *text)
{
	tl_write_file(path, text, strlen(text));
}

void tl_copy_file(const char *from, const char *to)
{
	size_t n;
	void *d = tl_read_file(from, &n);
	tl_write_file(to, d, n);
	free(d);
}

const char *tl_write_temp(const char *tag, const char *suffix, const char *text)
{
	static char path[128];
	tl_make_temp(path, sizeof path, tag, suffix, text);
	return path;
}

tl_cmd_t tl_dalic(const char *input, const char *fmt, ...)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	char args[2048], cmd[3072];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	cr_assert(n >= 0 && (size_t)n < sizeof args, "command line too long");
	char in[128];
	tl_make_temp(in, sizeof in, "stdin", "", input ? input : "");
	snprintf(cmd, sizeof cmd, "%s 2>&1 %s < %s", bin, args, in);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p, "cannot run %s", cmd);
	tl_cmd_t c = {0, NULL};
	size_t cap = 1 << 16, len = 0, got;
	c.out = malloc(cap);
	cr_assert_not_null(c.out);
	while ((got = fread(c.out + len, 1, cap - len - 1, p)) > 0) {
		len += got;
		if (len + 1 == cap) {
			c.out = realloc(c.out, cap *= 2);
			cr_assert_not_null(c.out);
		}
	}
	c.out[len] = 0;
	int st = pclose(p);
	unlink(in);
	c.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return c;
}

void tl_cmd_free(tl_cmd_t *c)
{
	free(c->out);
	c->out = NULL;
}

void tl_sleep_ms(int ms)
{
	struct timespec d = {ms / 1000, (long)(ms % 1000) * 1000000};
	nanosleep(&d, NULL);
}
