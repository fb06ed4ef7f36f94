/*
 * `mark` / `since mark` over stats documents (stats/growth.h): an operator's counters are its
 * outputs' summed; since = now - mark per operator, an operator new since the mark counts
 * from 0, live bytes may shrink. Documents written by hand, expectations computed by hand.
 */
#include "stats/growth.h"
#include "tests/testlib.h"

TestSuite(stats_growth);

/* dec: two outputs (live 1000 + 24, growth 2 + 1, allocations 3 + 1 of 4096 + 64 bytes);
 * resize: one output (live 500, growth 0, 1 allocation of 500). */
static const char *growth_mark_doc =
    "{\"iterations\": 10, \"operators\": ["
    " {\"name\": \"dec\", \"outputs\": ["
    "  {\"bytes_live\": 1000, \"growth_events\": 2, \"allocations\": {\"count\": 3, \"bytes\": 4096}},"
    "  {\"bytes_live\": 24, \"growth_events\": 1, \"allocations\": {\"count\": 1, \"bytes\": 64}}]},"
    " {\"name\": \"resize\", \"outputs\": ["
    "  {\"bytes_live\": 500, \"growth_events\": 0, \"allocations\": {\"count\": 1, \"bytes\": 500}}]}]}";

/* 15 iterations on: dec's first output grew (live 3000, growth 5, 6 allocations of 10000),
 * resize released memory (live 200), and crop appeared. */
static const char *growth_now_doc =
    "{\"iterations\": 25, \"operators\": ["
    " {\"name\": \"dec\", \"outputs\": ["
    "  {\"bytes_live\": 3000, \"growth_events\": 5, \"allocations\": {\"count\": 6, \"bytes\": 10000}},"
    "  {\"bytes_live\": 24, \"growth_events\": 1, \"allocations\": {\"count\": 1, \"bytes\": 64}}]},"
    " {\"name\": \"resize\", \"outputs\": ["
    "  {\"bytes_live\": 200, \"growth_events\": 0, \"allocations\": {\"count\": 1, \"bytes\": 500}}]},"
    " {\"name\": \"crop\", \"outputs\": ["
    "  {\"bytes_live\": 77, \"growth_events\": 1, \"allocations\": {\"count\": 2, \"bytes\": 80}}]}]}";

Test(stats_growth, mark_sums_the_outputs_of_each_operator)
{
	cJSON *doc = cJSON_Parse(growth_mark_doc);
	cr_assert(doc);
	dalic_growth_t m;
	ASSERT_OK(dalic_growth_mark(doc, &m));
	cr_assert_eq(m.num_rows, 2);
	cr_expect_eq(m.iterations, 10);
	cr_expect_str_eq(m.rows[0].name, "dec");
	cr_expect_eq(m.rows[0].bytes_live, 1024);
	cr_expect_eq(m.rows[0].growth_events, 3);
	cr_expect_eq(m.rows[0].allocations, 4);
	cr_expect_eq(m.rows[0].allocated_bytes, 4160);
	cr_expect_str_eq(m.rows[1].name, "resize");
	cr_expect_eq(m.rows[1].bytes_live, 500);
	dalic_growth_free(&m);
	cJSON_Delete(doc);
}

Test(stats_growth, since_is_now_minus_the_mark_per_operator)
{
	cJSON *a = cJSON_Parse(growth_mark_doc), *b = cJSON_Parse(growth_now_doc);
	cr_assert(a && b);
	dalic_growth_t m, s;
	ASSERT_OK(dalic_growth_mark(a, &m));
	ASSERT_OK(dalic_growth_since(&m, b, &s));
	cr_assert_eq(s.num_rows, 3);
	cr_expect_eq(s.iterations, 15);
	/* dec: 3024 - 1024, 6 - 3, 7 - 4, 10064 - 4160 */
	cr_expect_str_eq(s.rows[0].name, "dec");
	cr_expect_eq(s.rows[0].bytes_live, 2000);
	cr_expect_eq(s.rows[0].growth_events, 3);
	cr_expect_eq(s.rows[0].allocations, 3);
	cr_expect_eq(s.rows[0].allocated_bytes, 5904);
	/* resize shrank: 200 - 500 */
	cr_expect_eq(s.rows[1].bytes_live, -300);
	cr_expect_eq(s.rows[1].growth_events, 0);
	cr_expect_eq(s.rows[1].allocations, 0);
	/* crop is new: all of it */
	cr_expect_str_eq(s.rows[2].name, "crop");
	cr_expect_eq(s.rows[2].bytes_live, 77);
	cr_expect_eq(s.rows[2].growth_events, 1);
	cr_expect_eq(s.rows[2].allocations, 2);
	cr_expect_eq(s.rows[2].allocated_bytes, 80);
	dalic_growth_free(&s);
	dalic_growth_free(&m);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

Test(stats_growth, a_document_without_operators_is_refused)
{
	cJSON *doc = cJSON_Parse("{\"iterations\": 3}");
	dalic_growth_t m;
	cr_expect_eq(dalic_growth_mark(doc, &m), DALIC_EPARSE);
	cr_expect_eq(m.num_rows, 0);
	cJSON_Delete(doc);
	doc = cJSON_Parse("{\"operators\": [{\"outputs\": []}]}"); /* an operator without a name */
	cr_expect_eq(dalic_growth_mark(doc, &m), DALIC_EPARSE);
	cJSON_Delete(doc);
}
