/*
 * The help screen and the key bar come from the command table: every command in
 * tui/commands.c (read here from the source, so a new command is checked automatically)
 * appears on the help screen, and any key closes it.
 */
#include "tests/testlib/tui.h"

TestSuite(tui_help, .timeout = 60);

Test(tui_help, lists_every_command_of_the_table)
{
	char *src = tl_try_read_file("tui/commands.c", NULL);
	cr_assert_not_null(src, "run the tests from the repository root");
	tl_tui_t r = tl_tui_run("@arith", "?\ndump\nq\n", "--size 110x40");
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "HELP");
	int commands = 0;
	for (const char *p = src; (p = strstr(p, "{.name = \"")); commands++) {
		p += strlen("{.name = \"");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(p, "\""), p);
		char needle[80];
		snprintf(needle, sizeof needle, " %s ", name);
		cr_expect(strstr(tl_tui_dump(&r, 1), needle), "help lacks command '%s':\n%s", name,
		          tl_tui_dump(&r, 1));
	}
	cr_expect_geq(commands, 15, "parsed only %d commands from tui/commands.c", commands);
	free(src);
	tl_tui_free(&r);
}

Test(tui_help, any_key_closes_it_and_the_key_bar_names_the_basics)
{
	tl_tui_t r = tl_tui_run("@arith", "<F1>\ndump\nx\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "HELP");
	tl_tui_expect_lacks(&r, 2, "HELP");
	tl_tui_expect_has(&r, 2, "GRAPH");
	char bar[512];
	tl_tui_line(tl_tui_dump(&r, 2), 29, bar, sizeof bar);
	for (const char *w = "Help\0Next it\0Step op\0Run/Pause\0Quit\0"; *w; w += strlen(w) + 1)
		EXPECT_HAS(bar, w, "key bar lacks '%s'", w);
	tl_tui_free(&r);
}

Test(tui_help, unknown_key_says_so)
{
	tl_tui_t r = tl_tui_run("@arith", "x\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "x: no such key (? shows them all)");
	tl_tui_free(&r);
}
