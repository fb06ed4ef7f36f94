/*
 * Shared helpers of the pipeline-script tests: load a script through dalic_script_load from
 * a temporary .py file, and read the graph definition back compactly:
 *
 *     dalic_graphdef_t *g = tl_script_load("...python...", NULL);
 *     cr_expect_str_eq(tl_def_ops(g), "random__CoinFlip:__CoinFlip_0 ArithmeticGenericOp:...");
 *     cr_expect_str_eq(tl_def_arg(g, 1, "expression_desc"), "'add(&0 $0:int32)'");
 *
 * Errors come back with the temporary path replaced by "SCRIPT", so a test can compare the
 * whole located message ("SCRIPT:3:5: ..."). Strings returned live in one static buffer,
 * valid until the next call.
 */
#ifndef DALIC_TESTS_TESTLIB_SCRIPT_H
#define DALIC_TESTS_TESTLIB_SCRIPT_H

#include "tests/testlib.h"

#include "engine/graphdef.h"
#include "frontend/script.h"

/* Loads the script (pipeline `name`, NULL = first), asserting success. */
dalic_graphdef_t *tl_script_load(const char *text, const char *name);
/* Loads the script expecting status `code`; returns the message with the path replaced by
 * "SCRIPT". */
const char *tl_script_error(const char *text, int code);
/* "schema:instance" of every operator, space separated. */
const char *tl_def_ops(const dalic_graphdef_t *g);
/* Inputs of operator i: "node/device" for regular inputs, "arg=node" for argument inputs. */
const char *tl_def_inputs(const dalic_graphdef_t *g, int i);
/* Argument `name` of operator i as Python literal text, "<unset>" when not given. */
const char *tl_def_arg(const dalic_graphdef_t *g, int i, const char *name);
/* Pipeline outputs: "node/device" space separated. */
const char *tl_def_outputs(const dalic_graphdef_t *g);

#endif
