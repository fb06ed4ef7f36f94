/*
 * Files the dalic command writes (dumps, serialized pipelines) and its standard output:
 * every write and close is checked, and a file appears under its name only when complete —
 * it is written under a temporary name in the same directory and renamed — so a full disk
 * gives an error and a non-zero exit, never a truncated file that looks finished.
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int dalic_cli_file_open(dalic_cli_file_t *file, const char *path)
{
	*file = (dalic_cli_file_t){0};
	file->path = strdup(path);
	if (!file->path)
		return dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	struct stat st;
	if (!strcmp(path, "-")) {
		file->f = stdout;
		return DALIC_OK;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or a pipe (/dev/stdout, /dev/full): no name to rename into */
		file->f = fopen(path, "wb");
	} else {
		static unsigned counter;
		size_t n = strlen(path) + 48;
		file->tmp = malloc(n);
		int fd = -1;
		if (file->tmp) {
			snprintf(file->tmp, n, "%s.tmp-%ld-%u", path, (long)getpid(), counter++);
			fd = open(file->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
		}
		file->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
		if (!file->f && fd >= 0) {
			close(fd);
			unlink(file->tmp);
		}
	}
	if (!file->f) {
		int err = errno;
		free(file->tmp);
		free(file->path);
		*file = (dalic_cli_file_t){0};
		return dalic_cli_fail(DALIC_EIO, "cannot create '%s': %s", path, strerror(err));
	}
	return DALIC_OK;
}

int dalic_cli_file_close(dalic_cli_file_t *file, bool ok)
{
	if (!file->f)
		return DALIC_EIO;
	int err = 0;
	if (fflush(file->f) || ferror(file->f))
		err = errno ? errno : EIO;
	if (file->f != stdout && fclose(file->f) && !err)
		err = errno ? errno : EIO;
	if (ok && !err && file->tmp && rename(file->tmp, file->path))
		err = errno;
	if (file->tmp && (!ok || err))
		unlink(file->tmp);
	int rc = DALIC_OK;
	if (err)
		rc = dalic_cli_fail(DALIC_EIO, "cannot write '%s': %s", file->path, strerror(err));
	else if (!ok)
		rc = DALIC_EIO;
	free(file->tmp);
	free(file->path);
	*file = (dalic_cli_file_t){0};
	return rc;
}

int dalic_cli_save(const char *path, const void *buf, size_t len)
{
	dalic_cli_file_t file;
	int rc = dalic_cli_file_open(&file, path);
	if (rc)
		return rc;
	bool ok = len == 0 || fwrite(buf, 1, len, file.f) == len;
	return dalic_cli_file_close(&file, ok) ? DALIC_EIO : DALIC_OK;
}

int dalic_cli_slurp(const char *path, void **buf, size_t *len)
{
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdin : fopen(path, "rb");
	if (!f)
		return dalic_cli_fail(DALIC_EIO, "cannot open '%s': %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	while (b && (n += fread(b + n, 1, cap - n, f)) == cap) {
		char *nb = realloc(b, cap *= 2);
		if (!nb)
			free(b);
		b = nb;
	}
	bool err = ferror(f);
	int saved = errno;
	if (!std)
		fclose(f);
	if (!b || err) {
		free(b);
		return dalic_cli_fail(err ? DALIC_EIO : DALIC_ENOMEM, "cannot read '%s': %s", path,
		                      err ? strerror(saved) : "out of memory");
	}
	b[n] = 0; /* n < cap here: text callers (tune --apply) read it as a string */
	*buf = b;
	*len = n;
	return DALIC_OK;
}

int dalic_cli_check_stdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return DALIC_OK;
	/* an earlier write failed and its errno is gone: say what is known */
	return dalic_cli_fail(DALIC_EIO, "cannot write standard output: %s",
	                      errno ? strerror(errno) : "part of the output was lost");
}
