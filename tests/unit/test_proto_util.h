/* Helpers shared by the protobuf tests: a small pipeline built through the graphdef API, a
 * field-by-field comparison of graph definitions, and byte-level mutation of a serialized
 * pipeline through the generated protobuf-c structures. */
#ifndef DALIC_TEST_PROTO_UTIL_H
#define DALIC_TEST_PROTO_UTIL_H

#include "dali.pb-c.h"
#include "engine/graphdef.h"

/* coin_flip(probability=0.25, shape=[2, 3]) -> cast(FLOAT, name="to_float"), outputs
 * (coin, to_float) with to_float declared FLOAT / ndim 2; CPU-only, seed 42, batch 4. */
dalic_graphdef_t *proto_test_coin_cast(void);

/* Every field of a and b compared; reports the first difference through Criterion. */
void proto_test_expect_same(const dalic_graphdef_t *a, const dalic_graphdef_t *b);

/* Serializes g, unpacks the bytes with protobuf-c, lets `edit` change the message, packs it
 * again and parses that with dalic_proto_read. Returns the status; *out gets the result.
 * The message is freed with free_unpacked afterwards: edits must malloc what they store. */
int proto_test_edit_and_read(const dalic_graphdef_t *g, void (*edit)(DaliProto__PipelineDef *),
                             dalic_graphdef_t **out);

/* The Argument called `name` of op i in m (aborts the test if there is none). */
DaliProto__Argument *proto_test_arg(DaliProto__PipelineDef *m, size_t op, const char *name);

/* Replaces a message string with a malloc'd copy of s. */
void proto_test_set_str(char **field, const char *s);

/* Reads a whole file; new buffer, free(). */
uint8_t *proto_test_read_file(const char *path, size_t *len);

#endif
