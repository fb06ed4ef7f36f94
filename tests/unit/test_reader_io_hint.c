/* dalic_rdio_will_need's advice windows (reader_io.h): a record continuing the last advised
 * range advises the next 4 MiB at once (clipped to the file), records inside it make no new
 * advice, a jump elsewhere (a shuffle, the next epoch from the start) advises just that
 * record, and read_ahead copies are never advised. Mapped and pread files alike. */
#include "kernels/common/reader_io.h"
#include "tests/testlib.h"

#include <stdlib.h>

TestSuite(reader_io_hint, .timeout = 20, .fini = tl_tmpdir_remove);

static void reader_io_hint_expect(const dalic_rdio_t *io, int64_t lo, int64_t hi)
{
	cr_expect_eq(io->files[0].hint_lo, lo, "advised from %lld, expected %lld",
	             (long long)io->files[0].hint_lo, (long long)lo);
	cr_expect_eq(io->files[0].hint_hi, hi, "advised to %lld, expected %lld",
	             (long long)io->files[0].hint_hi, (long long)hi);
}

Test(reader_io_hint, sequential_records_advise_a_chunk_at_a_time)
{
	const int64_t size = 6 << 20, mib4 = 4 << 20;
	uint8_t *bytes = calloc((size_t)size, 1);
	cr_assert(bytes);
	const char *path = tl_tmp_path("records.bin");
	tl_write_file(path, bytes, (size_t)size);
	free(bytes);
	for (int mode = 0; mode < 3; mode++) { /* mapped, pread, read_ahead */
		dalic_rdio_t io;
		char err[256];
		dalic_rdio_init(&io, mode == 0, mode == 2);
		cr_assert_eq(dalic_rdio_add(&io, path, err, sizeof err), 0);
		cr_assert_eq(dalic_rdio_open(&io, 0, err, sizeof err), 0, "%s", err);
		dalic_rdio_will_need(&io, 0, 0, 1000);
		if (mode == 2) { /* in memory already: nothing to advise */
			reader_io_hint_expect(&io, 0, 0);
			dalic_rdio_free(&io);
			continue;
		}
		reader_io_hint_expect(&io, 0, 1000);      /* the first record alone */
		dalic_rdio_will_need(&io, 0, 1000, 1000); /* continues it: the next 4 MiB */
		reader_io_hint_expect(&io, 1000, 1000 + mib4);
		dalic_rdio_will_need(&io, 0, 2000, 5000); /* inside: no new advice */
		reader_io_hint_expect(&io, 1000, 1000 + mib4);
		dalic_rdio_will_need(&io, 0, mib4 + 500, 1000); /* runs past: the rest, clipped */
		reader_io_hint_expect(&io, mib4 + 500, size);
		dalic_rdio_will_need(&io, 0, 10, 100); /* back to the start (next epoch) */
		reader_io_hint_expect(&io, 10, 110);
		dalic_rdio_will_need(&io, 0, size - 50, 100); /* a jump: that record, clipped */
		reader_io_hint_expect(&io, size - 50, size);
		dalic_rdio_free(&io);
	}
}
