/*
 * `dalic tfrecord-index FILE.tfrecord FILE.idx`: writes the index readers.tfrecord needs, the
 * same "<offset> <size>" lines DALI's tfrecord2idx writes, after checking every record (both
 * CRCs, nothing truncated). It is a file utility rather than a pipeline client, so unlike the
 * other commands it calls the library's indexer (kernels/common/tfrec_index.h) directly.
 */
#include "cli/cli.h"

#include "kernels/common/tfrec_index.h"

#include <string.h>

static int tfrecord_index_main(int argc, char **argv)
{
	bool quiet = false;
	const char *files[2];
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			quiet = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "dalic tfrecord-index: unknown option '%s'\n", argv[i]);
			return 2;
		} else if (nfiles < 2) {
			files[nfiles++] = argv[i];
		} else {
			fprintf(stderr, "dalic tfrecord-index: one TFRecord file and one index file\n");
			return 2;
		}
	}
	if (nfiles != 2) {
		fprintf(stderr, "usage: dalic tfrecord-index FILE.tfrecord FILE.idx\n");
		return 2;
	}
	char err[1024];
	int64_t records;
	if (dalic_tfrec_index_write(files[0], files[1], &records, err, sizeof err)) {
		fprintf(stderr, "dalic tfrecord-index: %s\n", err);
		return 1;
	}
	if (!quiet)
		printf("%s: %lld records indexed in %s\n", files[0], (long long)records, files[1]);
	return dalic_cli_check_stdout() ? 1 : 0;
}

DALIC_COMMAND(tfrecord_index) = {
    .name = "tfrecord-index",
    .summary = "write the index file readers.tfrecord needs (as DALI's tfrecord2idx)",
    .usage = "usage: dalic tfrecord-index FILE.tfrecord FILE.idx [-q]\n"
             "  Writes one '<offset> <size>' line per record of FILE.tfrecord into FILE.idx,\n"
             "  as DALI's tfrecord2idx does, after checking each record: the length and data\n"
             "  CRCs (masked CRC-32C) and that no record is cut short. A bad record is an\n"
             "  error naming its offset, and no index is left behind. -q: print nothing on\n"
             "  success.\n",
    .main = tfrecord_index_main,
};
