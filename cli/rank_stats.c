/*
 * A rank's statistics document (ranks.h): `dalic stats --json` plus who the rank is and which
 * part of each reader's epoch it read, written as DIR/stats-rank-N.json for stats-merge or
 * gathered through MPI for --ranks.
 */
#include "cli/cli.h"
#include "cli/ranks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

cJSON *dalic_cli_stats_doc(const dalic_stats_snapshot_t *snap, const char *path, long warmup)
{
	char *text = dalic_stats_json(snap);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!doc)
		return NULL;
	cJSON *p = cJSON_GetObjectItemCaseSensitive(doc, "pipeline");
	cJSON_AddStringToObject(p, "source", path);
	cJSON_AddNumberToObject(p, "warmup_iterations", (double)warmup);
	return doc;
}

int64_t dalic_cli_unix_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

cJSON *dalic_cli_rank_coverage(dalic_pipeline_t *p)
{
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0; arr && i < dalic_pipeline_num_ops(p); i++) {
		dalic_op_t *op = dalic_pipeline_op(p, i);
		dalic_reader_meta_t m;
		if (dalic_pipeline_reader_meta(p, dalic_op_name(op), &m))
			continue; /* not a reader */
		cJSON *r = cJSON_CreateObject();
		cJSON_AddItemToArray(arr, r);
		cJSON_AddStringToObject(r, "reader", dalic_op_name(op));
		cJSON_AddNumberToObject(r, "epoch_size", (double)m.epoch_size);
		cJSON_AddNumberToObject(r, "epoch_size_padded", (double)m.epoch_size_padded);
		cJSON_AddNumberToObject(r, "shard_id", m.shard_id);
		cJSON_AddNumberToObject(r, "num_shards", m.number_of_shards);
		cJSON_AddBoolToObject(r, "pad_last_batch", m.pad_last_batch);
		cJSON_AddBoolToObject(r, "stick_to_shard", m.stick_to_shard);
		/* DALI's start_index(id, n, size) = size * id / n; the shard is [begin, end) */
		int64_t n = m.number_of_shards > 0 ? m.number_of_shards : 1;
		int64_t begin = m.epoch_size * m.shard_id / n;
		int64_t end = m.epoch_size * (m.shard_id + 1) / n;
		cJSON_AddNumberToObject(r, "shard_begin", (double)begin);
		cJSON_AddNumberToObject(r, "shard_end", (double)end);
		cJSON_AddNumberToObject(r, "shard_size", (double)(end - begin));
	}
	return arr;
}

/* samples_read and epochs of each reader: its runs (batches) times the batch size. An epoch
 * of a shard is its samples, or padded (pad_last_batch) every shard's ceil(size / n) samples
 * and then the last one again up to a whole batch. */
static void rank_stats_fill_coverage(const dalic_stats_snapshot_t *snap, cJSON *cov)
{
	cJSON *r;
	cJSON_ArrayForEach(r, cov)
	{
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(r, "reader"));
		const dalic_stats_operator_t *op = name ? dalic_stats_find_operator(snap, name) : NULL;
		double read = op ? (double)op->time.count * snap->batch_size : 0;
		int64_t size = (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "epoch_size"));
		int64_t n = (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "num_shards"));
		int64_t b = snap->batch_size > 0 ? snap->batch_size : 1;
		int64_t per = (int64_t)cJSON_GetNumberValue(cJSON_GetObjectItem(r, "shard_size"));
		if (cJSON_IsTrue(cJSON_GetObjectItem(r, "pad_last_batch")) && n > 0)
			per = ((size + n - 1) / n + b - 1) / b * b;
		cJSON_AddNumberToObject(r, "samples_per_epoch", (double)per);
		cJSON_AddNumberToObject(r, "samples_read", read);
		cJSON_AddNumberToObject(r, "epochs_read", per > 0 ? read / per : 0);
	}
}

cJSON *dalic_cli_rank_doc(const dalic_stats_snapshot_t *snap, const dalic_cli_rank_t *rk,
                          dalic_cli_rank_run_t *run)
{
	cJSON *doc = dalic_cli_stats_doc(snap, run->path, run->warmup);
	if (!doc) {
		dalic_cli_fail(DALIC_ENOMEM, "out of memory");
		return NULL;
	}
	cJSON *r = cJSON_AddObjectToObject(doc, "rank");
	cJSON_AddNumberToObject(r, "rank", rk->rank);
	cJSON_AddNumberToObject(r, "world", rk->world);
	cJSON_AddNumberToObject(r, "local_rank", rk->local_rank);
	if (rk->launcher)
		cJSON_AddStringToObject(r, "launcher", rk->launcher);
	else
		cJSON_AddNullToObject(r, "launcher");
	char host[256] = "";
	if (gethostname(host, sizeof host - 1))
		strcpy(host, "?");
	cJSON_AddStringToObject(r, "host", host);
	cJSON_AddNumberToObject(r, "pid", (double)getpid());
	cJSON_AddNumberToObject(r, "start_unix_ns", (double)run->start_unix_ns);
	cJSON *cov = run->coverage ? run->coverage : cJSON_CreateArray();
	run->coverage = NULL;
	rank_stats_fill_coverage(snap, cov);
	cJSON_AddItemToObject(doc, "epoch_coverage", cov);
	return doc;
}

int dalic_cli_rank_save(const char *dir, const cJSON *doc, int rank, dalic_stats_t *s)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		return dalic_cli_fail(DALIC_EIO, "--stats-dir %s: %s", dir, strerror(errno));
	char path[4096];
	char *text = cJSON_Print(doc);
	if (!text)
		return dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	snprintf(path, sizeof path, "%s/stats-rank-%d.json", dir, rank);
	int rc = dalic_cli_save(path, text, strlen(text));
	free(text);
	if (!rc && s) {
		snprintf(path, sizeof path, "%s/trace-rank-%d.json", dir, rank);
		if ((rc = dalic_stats_save_trace(s, path)))
			dalic_cli_error(rc);
	}
	return rc;
}
