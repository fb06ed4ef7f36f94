/*
 * `dalic tui PIPELINE`: the workbench (tui/). With --keys and --dump it runs headless: no
 * terminal, a key script, text screen dumps — what the tests drive.
 */
#include "cli/ckpt.h"
#include "cli/cli.h"
#include "cli/feed.h"
#include "tui/attach_view.h"
#include "tui/ranks_view.h"
#include "tui/tui.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tui_main(int argc, char **argv)
{
	/* --attach PATH: a live process's stats socket; taken out first, since PATH would
	 * otherwise read as the PIPELINE */
	const char *attach = NULL;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--attach")) {
			attach = argv[i + 1];
			memmove(&argv[i], &argv[i + 2], (size_t)(argc - i - 1) * sizeof *argv);
			argc -= 2;
			break;
		}
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	tui_options_t t = {.width = 100,
	                   .height = 30,
	                   .path = o.path,
	                   .pipeline = o.pipeline,
	                   .debug = o.debug,
	                   .override = o.override,
	                   .feeds = o.feeds,
	                   .num_feeds = o.num_feeds};
	const char *ranks = NULL;  /* --stats-dir DIR: the ranks view */
	dalic_cli_ckpt_opts_t ck = {.at = -1};
	for (int i = 1; i < argc; i++) {
		int used = dalic_cli_ckpt_parse(argc, argv, i, &ck);
		if (used < 0)
			return 2;
		if (used) {
			i += used - 1;
		} else if (!strcmp(argv[i], "--keys") && i + 1 < argc) {
			t.keys = argv[++i];
		} else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
			t.dump = argv[++i];
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (sscanf(argv[++i], "%dx%d", &t.width, &t.height) != 2 || t.width < 20 ||
			    t.height < 8 || t.width > 1000 || t.height > 1000) {
				fprintf(stderr,
				        "dalic tui: --size wants WxH (at least 20x8), not '%s'\n",
				        argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--run")) {
			t.run = true;
		} else if (!strcmp(argv[i], "--trace")) {
			t.trace = true;
		} else if (!strcmp(argv[i], "--stats-dir") && i + 1 < argc) {
			ranks = argv[++i];
		} else {
			fprintf(stderr, "dalic tui: unknown option '%s' (see dalic tui --help)\n",
			        argv[i]);
			return 2;
		}
	}
	if (ck.save) {
		fprintf(stderr, "dalic tui: --save-checkpoint is for dalic run; in the workbench c "
		                "saves the checkpoint of the current iteration\n");
		return 2;
	}
	dalic_cli_ckpt_override(&ck, &t.override);
	t.checkpoint = ck.load;
	t.at = ck.at;
	if (!t.keys != !t.dump) {
		fprintf(stderr, "dalic tui: headless mode needs both --keys FILE and --dump DIR\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	if (ranks) /* a merged statistics directory, read-only: no pipeline */
		return dalic_tui_ranks_view(ranks, t.keys, t.dump, t.width, t.height);
	if (attach) /* a live process's snapshots, read-only: no pipeline here */
		return dalic_tui_attach_view(attach, t.keys, t.dump, t.width, t.height);
	if (!o.path) {
		fprintf(stderr,
		        "dalic tui: no PIPELINE given (a .py script, a .pb file or @sample)\n");
		return 2;
	}
	dalic_cli_feeds_quiet(true); /* feed errors show in the workbench, not on its screen */
	return t.keys ? dalic_tui_run_headless(&t) : dalic_tui_run_terminal(&t);
}

DALIC_COMMAND(tui) = {
    .name = "tui",
    .summary = "the workbench: graph, operators, queues and batches of a running pipeline",
    .usage = "usage: dalic tui PIPELINE [--run] [--trace] [--checkpoint FILE] [--at N]\n"
             "                [pipeline flags]\n"
             "       dalic tui PIPELINE --keys FILE --dump DIR [--size WxH] [pipeline flags]\n"
             "  --run            start running at once\n"
             "  --trace          record trace events from the start (w saves trace.json)\n"
             "  --checkpoint FILE  open at a DALI checkpoint (either engine)\n"
             "  --at N           open at iteration N (from the start or the checkpoint),\n"
             "                   moving readers and generators on without running\n"
             "  --keys FILE      headless: key script, one key or command per line ('-': stdin)\n"
             "  --dump DIR       headless: write screen dumps DIR/screen-NNN.txt\n"
             "  --size WxH       headless screen size (default 100x30)\n"
             "       dalic tui --stats-dir DIR [--keys FILE --dump DIR]\n"
             "  --stats-dir DIR  a stats-merge directory, read-only: the ranks side by side\n"
             "       dalic tui --attach PATH [--keys FILE --dump DIR]\n"
             "  --attach PATH    a live process serving its stats on the socket PATH\n"
             "                   (DALIC_STATS_SOCKET), read-only; m marks memory, M since\n"
             "In the workbench, ? shows every key. See docs/tui.md.\n",
    .pipeline_flags = true,
    .main = tui_main,
};
