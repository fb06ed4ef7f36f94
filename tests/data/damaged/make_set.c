/* Writes the damaged-image set (tests/testlib/damage.c) into a folder, for make_golden.py:
 *   make_set SAMPLES_DIR OUT_DIR */
#include "tests/testlib/damage.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s SAMPLES_DIR OUT_DIR\n", argv[0]);
		return 2;
	}
	int n = tl_damage_write_set(argv[1], argv[2]);
	if (n < 0)
		return 1;
	printf("%d files\n", n);
	return 0;
}
