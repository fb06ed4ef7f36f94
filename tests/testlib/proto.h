/* Shared helpers of the protobuf tests: a small pipeline built through the graphdef API, a
 * field-by-field comparison of graph definitions, and byte-level mutation of a serialized
 * pipeline through the generated protobuf-c structures. */
#ifndef DALIC_TESTS_TESTLIB_PROTO_H
#define DALIC_TESTS_TESTLIB_PROTO_H

#include "tests/testlib.h"

#include "dali.pb-c.h"
#include "engine/graphdef.h"

/* coin_flip(probability=0.25, shape=[2, 3]) -> cast(FLOAT, name="to_float"), outputs
 * (coin, to_float) with to_float declared FLOAT / ndim 2; CPU-only, seed 42, batch 4. */
dalic_graphdef_t *tl_proto_coin_cast(void);

/* Every field of a and b compared; reports the first difference through Criterion. */
void tl_expect_same_def(const dalic_graphdef_t *a, const dalic_graphdef_t *b);

/* Serializes g, unpacks the bytes with protobuf-c, lets `edit` change the message, packs it
 * again and parses that with dalic_proto_read. Returns the status; *out gets the result.
 * The message is freed with free_unpacked afterwards: edits must malloc what they store. */
int tl_proto_edit_and_read(const dalic_graphdef_t *g, void (*edit)(DaliProto__PipelineDef *),
                           dalic_graphdef_t **out) __attribute__((warn_unused_result));

/* The Argument called `name` of op i in m (aborts the test if there is none). */
DaliProto__Argument *tl_proto_arg(DaliProto__PipelineDef *m, size_t op, const char *name);

/* Replaces a message string with a malloc'd copy of s. */
void tl_proto_set_str(char **field, const char *s);

#endif
