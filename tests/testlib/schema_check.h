/*
 * A JSON Schema checker for the subset docs/stats-schema.md uses (type, enum, const,
 * required, properties, additionalProperties, patternProperties, items, minItems, maxItems,
 * minimum, maximum, pattern, $ref to "#/$defs/..."), over cJSON trees, for the stats tests.
 */
#ifndef DALIC_TESTS_TESTLIB_SCHEMA_CHECK_H
#define DALIC_TESTS_TESTLIB_SCHEMA_CHECK_H

#include "tests/testlib.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* Validates `doc` against `schema` (`root` resolves $ref). On failure returns false and writes
 * the JSON path and the broken rule into err. */
bool tl_schema_validate(const cJSON *root, const cJSON *schema, const cJSON *doc, char *err,
                        size_t errlen);
/* The schema embedded in docs/stats-schema.md (the ```json schema block). New: cJSON_Delete. */
cJSON *tl_schema_load(const char *md_path);

#endif
