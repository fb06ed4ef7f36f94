/*
 * A minimal stand-in for <criterion/criterion.h>, used only to run the executor tests under
 * ThreadSanitizer: Criterion 2.4 cannot start under TSan (its inheritable arena and sandbox
 * collide with TSan's fixed memory layout — Criterion issue #274), whatever the tests do.
 * It provides the subset the exec tests use, with Criterion's meaning: Test/TestSuite
 * register, cr_assert* stop the test, cr_expect* record a failure and go on. runner.c runs
 * each test in its own forked process with the suite's timeout.
 */
#ifndef DALIC_TSAN_CRITERION_SHIM_H
#define DALIC_TSAN_CRITERION_SHIM_H

#include <stdbool.h>
#include <string.h>

typedef struct shim_test {
	const char *suite, *name;
	void (*fn)(void);
	struct shim_test *next;
} shim_test_t;

typedef struct shim_suite {
	const char *name;
	int timeout;
	struct shim_suite *next;
} shim_suite_t;

void shim_register_test(shim_test_t *t);
void shim_register_suite(shim_suite_t *s);
/* Reports a failed check; `fatal` ends the test. The message is printf-style. */
void shim_fail(bool fatal, const char *file, int line, const char *expr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Ends the test as passed after printing why it was skipped. */
void shim_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#define TestSuite(suite, ...)                                                                      \
	static shim_suite_t shim_suite_##suite = {#suite, 60};                                     \
	__attribute__((constructor)) static void shim_suite_init_##suite(void)                    \
	{                                                                                          \
		struct {                                                                           \
			int timeout;                                                               \
		} opts = {60, __VA_ARGS__};                                                        \
		shim_suite_##suite.timeout = opts.timeout;                                         \
		shim_register_suite(&shim_suite_##suite);                                          \
	}

#define Test(suite, name)                                                                          \
	static void shim_fn_##suite##_##name(void);                                                \
	static shim_test_t shim_test_##suite##_##name = {#suite, #name,                            \
							   shim_fn_##suite##_##name, 0};           \
	__attribute__((constructor)) static void shim_reg_##suite##_##name(void)                  \
	{                                                                                          \
		shim_register_test(&shim_test_##suite##_##name);                                   \
	}                                                                                          \
	static void shim_fn_##suite##_##name(void)

#define SHIM_CHECK(fatal, cond, expr, ...)                                                         \
	do {                                                                                       \
		if (!(cond))                                                                       \
			shim_fail(fatal, __FILE__, __LINE__, expr, "" __VA_ARGS__);                \
	} while (0)

#define cr_assert_fail(...) shim_fail(true, __FILE__, __LINE__, "fail", __VA_ARGS__)
#define cr_expect_fail(...) shim_fail(false, __FILE__, __LINE__, "fail", __VA_ARGS__)
#define cr_skip_test(...) shim_skip("" __VA_ARGS__)
#define cr_assert(cond, ...) SHIM_CHECK(true, cond, #cond, ##__VA_ARGS__)
#define cr_expect(cond, ...) SHIM_CHECK(false, cond, #cond, ##__VA_ARGS__)
#define cr_assert_eq(a, b, ...) SHIM_CHECK(true, (a) == (b), #a " == " #b, ##__VA_ARGS__)
#define cr_expect_eq(a, b, ...) SHIM_CHECK(false, (a) == (b), #a " == " #b, ##__VA_ARGS__)
#define cr_assert_neq(a, b, ...) SHIM_CHECK(true, (a) != (b), #a " != " #b, ##__VA_ARGS__)
#define cr_expect_neq(a, b, ...) SHIM_CHECK(false, (a) != (b), #a " != " #b, ##__VA_ARGS__)
#define cr_expect_gt(a, b, ...) SHIM_CHECK(false, (a) > (b), #a " > " #b, ##__VA_ARGS__)
#define cr_expect_geq(a, b, ...) SHIM_CHECK(false, (a) >= (b), #a " >= " #b, ##__VA_ARGS__)
#define cr_assert_not_null(a, ...) SHIM_CHECK(true, (a) != NULL, #a " != NULL", ##__VA_ARGS__)
#define cr_expect_null(a, ...) SHIM_CHECK(false, (a) == NULL, #a " == NULL", ##__VA_ARGS__)
#define cr_expect_not_null(a, ...) SHIM_CHECK(false, (a) != NULL, #a " != NULL", ##__VA_ARGS__)
#define cr_assert_leq(a, b, ...) SHIM_CHECK(true, (a) <= (b), #a " <= " #b, ##__VA_ARGS__)
#define cr_assert_str_eq(a, b, ...) SHIM_CHECK(true, !strcmp((a), (b)), #a " == " #b, ##__VA_ARGS__)
#define cr_expect_str_eq(a, b, ...)                                                                \
	SHIM_CHECK(false, !strcmp((a), (b)), #a " == " #b, ##__VA_ARGS__)

#endif
