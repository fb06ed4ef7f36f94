/*
 * `dalic run --debug`: the whole pipeline run eagerly by a debug session, with the summary of
 * `dalic run` (same lines and JSON keys, so scripts read both alike) plus what debug mode
 * costs: the same pipeline is then run by the full engine for as many iterations and both
 * times are printed with their ratio. --dump writes the same file names as the full engine's
 * dump, so the two can be compared file by file. Print records of debug=True scripts are
 * replayed to stdout as the iterations run.
 */
#include "cli/cmd_debug.h"
#include "cli/ckpt.h"
#include "cli/feed.h"

#include "cli/summary.h"

#include <stdio.h>
#include <stdlib.h>

static const dalic_batch_t *debug_run_output(void *ctx, int o)
{
	return dalic_debug_output(ctx, o);
}

static const char *debug_run_output_name(void *ctx, int o)
{
	return dalic_debug_output_name(ctx, o);
}

/* The full engine on the same definition: seconds for `iterations`, or < 0 if it fails. */
static double debug_run_time_full_engine(const dalic_pipeline_t *def, long iterations,
                                         dalic_cli_feed_t *feeds)
{
	dalic_pipeline_t *p;
	if (dalic_pipeline_clone(def, NULL, &p))
		return -1;
	double secs = -1;
	if (!dalic_cli_feeds_attach(feeds, p) && !dalic_pipeline_build(p)) {
		int64_t t0 = dalic_clock_ns();
		long k = 0;
		while (k < iterations && !dalic_pipeline_run(p))
			k++;
		secs = k == iterations ? dalic_cli_seconds_since(t0) : -1;
	}
	dalic_pipeline_destroy(p);
	return secs;
}

int dalic_cli_debug_run(const dalic_cli_pipeline_opts_t *o, dalic_pipeline_t *p,
                        long iterations, bool json, const char *dump,
                        const dalic_cli_ckpt_opts_t *ck)
{
	dalic_debug_t *s = NULL;
	dalic_cli_feed_t *feeds = NULL;
	int rc = dalic_debug_open(p, &s);
	if (rc)
		dalic_cli_error(rc);
	else if (dalic_cli_feeds_open(o->feeds, o->num_feeds,
	                              dalic_pipeline_params(p)->batch_size, &feeds) ||
	         dalic_cli_feeds_attach_debug(feeds, s) || dalic_cli_ckpt_open_debug(ck, s))
		rc = DALIC_EINVAL;
	if (rc) {
		dalic_debug_close(s);
		dalic_pipeline_destroy(p);
		dalic_cli_feeds_close(feeds);
		return 1;
	}
	dalic_cli_summary_t m = {
	    .path = o->path,
	    .params = dalic_pipeline_params(p),
	    .debug = true,
	    .output = debug_run_output,
	    .output_name = debug_run_output_name,
	    .ctx = s,
	};
	bool dump_failed = false;
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	int64_t first = st.iteration; /* dumps are numbered from the checkpoint or --at */
	for (; m.iterations < iterations; m.iterations++) {
		int64_t t0 = dalic_clock_ns();
		rc = dalic_debug_next(s);
		m.seconds += dalic_cli_seconds_since(t0);
		if (rc)
			break;
		if (dalic_debug_num_outputs(s))
			m.samples += dalic_batch_num_samples(dalic_debug_output(s, 0));
		if (dump && (rc = dalic_cli_dump_outputs(dump, first + m.iterations,
		                                         dalic_debug_num_outputs(s),
		                                         debug_run_output, s))) {
			dump_failed = true; /* the dump printed its error */
			break;
		}
	}
	if (rc && rc != DALIC_EEND) {
		if (rc == DALIC_EOP)
			dalic_cli_debug_show_stop(s, rc);
		else if (!dump_failed)
			dalic_cli_error(rc);
		dalic_debug_close(s);
		dalic_pipeline_destroy(p);
		dalic_cli_feeds_close(feeds);
		return 1;
	}
	if (ck->save && dalic_debug_checkpoint_save(s, ck->save)) {
		fprintf(stderr, "dalic: %s\n", dalic_debug_last_error(s));
		rc = DALIC_EIO;
	}
	if (rc && rc != DALIC_EEND) {
		dalic_debug_close(s);
		dalic_pipeline_destroy(p);
		dalic_cli_feeds_close(feeds);
		return 1;
	}
	m.full_seconds =
	    m.iterations > 0 ? debug_run_time_full_engine(p, m.iterations, feeds) : -1;
	m.num_outputs = dalic_debug_num_outputs(s);
	if (json)
		rc = dalic_cli_summary_json(&m);
	else
		dalic_cli_summary_text(&m);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
	dalic_cli_feeds_close(feeds);
	return rc ? 1 : 0;
}
