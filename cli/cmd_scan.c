/*
 * `dalic scan PIPELINE` (also `dalic run --scan`): the data audit of issue 20. The pipeline is
 * turned into its scan (dalic_pipeline_make_scan: readers and whole-image decoders only, every
 * sample once, refused files logged instead of stopping), run for one epoch of its first
 * reader, and every file that warns or fails is reported with the codec's reason, as text or
 * with --json as one object. Exit status: 0 when every file decodes (warnings included), 3
 * when some file is refused, 1 when the scan itself cannot run.
 */
#include "cli/cli.h"
#include "cli/warnings.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Samples in one epoch of the first reader; 0 (with a message) when there is none. */
static int64_t scan_epoch(dalic_pipeline_t *p)
{
	for (int i = 0; i < dalic_pipeline_num_ops(p); i++) {
		dalic_op_t *op = dalic_pipeline_op(p, i);
		dalic_reader_meta_t meta;
		if (strncmp(dalic_op_schema(op), "readers__", 9) ||
		    dalic_pipeline_reader_meta(p, dalic_op_name(op), &meta))
			continue;
		return meta.epoch_size;
	}
	dalic_cli_fail(DALIC_EINVAL, "nothing to scan: the pipeline has no reader (a scan reads "
	                             "one epoch of its files)");
	return 0;
}

static int scan_report_json(const dalic_pipeline_t *p, const dalic_cli_warn_filter_t *f,
                            const char *path, int64_t files, double secs)
{
	int64_t entries, samples, refused;
	dalic_cli_warnings_tally(p, f, &entries, &samples, &refused);
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "pipeline", path);
	cJSON_AddNumberToObject(root, "files", (double)files);
	cJSON_AddNumberToObject(root, "seconds", secs);
	cJSON_AddNumberToObject(root, "images_per_second", secs > 0 ? (double)files / secs : 0);
	cJSON_AddNumberToObject(root, "files_with_warnings", (double)(samples - refused));
	cJSON_AddNumberToObject(root, "files_refused", (double)refused);
	cJSON_AddNumberToObject(root, "entries_dropped", (double)dalic_pipeline_warnings_dropped(p));
	cJSON_AddItemToObject(root, "warnings", dalic_cli_warnings_json(p, f));
	char *text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	puts(text);
	free(text);
	return DALIC_OK;
}

static void scan_report_text(const dalic_pipeline_t *p, const dalic_cli_warn_filter_t *f,
                             const char *path, int64_t files, double secs)
{
	int64_t entries, samples, refused;
	dalic_cli_warnings_tally(p, f, &entries, &samples, &refused);
	printf("pipeline: %s\nfiles: %lld\nseconds: %.6f\nimages_per_second: %.1f\n", path,
	       (long long)files, secs, secs > 0 ? (double)files / secs : 0);
	printf("files_with_warnings: %lld\nfiles_refused: %lld\n", (long long)(samples - refused),
	       (long long)refused);
	dalic_cli_warnings_list(stdout, p, f);
}

static int scan_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (strcmp(argv[i], "--scan")) { /* `dalic run --scan` lands here */
			fprintf(stderr, "dalic scan: unknown option '%s' (see dalic scan --help)\n",
			        argv[i]);
			return 2;
		}
	}
	if (o.debug) {
		fprintf(stderr, "dalic scan: --debug: a scan runs the full engine\n");
		return 2;
	}
	if (json)
		dalic_set_script_output(stderr);
	dalic_pipeline_t *p = NULL;
	int rc = dalic_cli_open(&o, &p);
	if (!rc)
		rc = dalic_pipeline_make_scan(p);
	if (!rc)
		rc = dalic_pipeline_build(p);
	if (rc) {
		dalic_cli_error(rc);
		if (p)
			dalic_pipeline_destroy(p);
		return 1;
	}
	int64_t epoch = scan_epoch(p);
	int batch = dalic_pipeline_params(p)->batch_size;
	int64_t iters = batch > 0 ? (epoch + batch - 1) / batch : 0;
	int64_t t0 = dalic_clock_ns();
	for (int64_t it = 0; !rc && it < iters; it++)
		rc = dalic_pipeline_run(p);
	double secs = dalic_cli_seconds_since(t0);
	if (!epoch || (rc && rc != DALIC_EEND)) {
		if (epoch)
			dalic_cli_error(rc);
		dalic_pipeline_destroy(p);
		return 1;
	}
	dalic_cli_warn_filter_t f = {iters, batch, epoch};
	int64_t entries, samples, refused;
	dalic_cli_warnings_tally(p, &f, &entries, &samples, &refused);
	if (json)
		rc = scan_report_json(p, &f, o.path, epoch, secs);
	else
		scan_report_text(p, &f, o.path, epoch, secs);
	dalic_pipeline_destroy(p);
	if (!rc)
		rc = dalic_cli_check_stdout();
	return rc ? 1 : refused ? 3 : 0;
}

DALIC_COMMAND(scan) = {
    .name = "scan",
    .summary = "decode one epoch of the data, report every file that warns or fails",
    .usage = "usage: dalic scan PIPELINE [--json] [pipeline flags]   (or dalic run --scan)\n"
             "  Reads one epoch of the pipeline's first reader in order and decodes every\n"
             "  image whole, with its decoders' output_type, as fast as the machine allows;\n"
             "  what comes after the decoders is not run. Files the decoders refuse do not\n"
             "  stop the scan. Lists every file that warns or fails, with the reason.\n"
             "  --json           one object: files, seconds, images_per_second,\n"
             "                   files_with_warnings, files_refused, warnings[]\n"
             "Exit status: 0 every file decodes (with or without warnings), 3 some file is\n"
             "refused, 1 the scan cannot run.\n",
    .pipeline_flags = true,
    .main = scan_main,
};
