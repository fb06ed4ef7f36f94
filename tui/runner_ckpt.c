/*
 * Checkpoints in the workbench (issue 27, docs/tui.md): `dalic tui PIPELINE --checkpoint F
 * --at N` opens either engine at that position (the full engine restores at build and seeks,
 * as `dalic run` does; the debug engine loads and goes to N); `c` writes the checkpoint of
 * the current iteration; and the position — DALI's epoch_idx and each reader's epoch and
 * samples into it — is read from that same checkpoint for the status line and QUEUES.
 * Readers' positions need enable_checkpointing (the states are traced only then); the note
 * says so otherwise.
 */
#include "engine/checkpoint.h"
#include "tui/runner_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int runner_ckpt_read(tui_runner_t *r, void **buf, size_t *len)
{
	FILE *f = fopen(r->opts.checkpoint, "rb");
	char msg[600];
	if (!f) {
		snprintf(msg, sizeof msg, "--checkpoint: cannot read %s: %s", r->opts.checkpoint,
		         strerror(errno));
		dalic_tui_runner_fail(r, msg);
		return DALIC_EIO;
	}
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *bigger = realloc(b, cap *= 2);
		if (!bigger)
			free(b);
		b = bigger;
	}
	bool bad = ferror(f) || !b;
	fclose(f);
	if (bad) {
		free(b);
		snprintf(msg, sizeof msg, "--checkpoint: cannot read %s", r->opts.checkpoint);
		dalic_tui_runner_fail(r, msg);
		return DALIC_EIO;
	}
	*buf = b;
	*len = n;
	return DALIC_OK;
}

int dalic_tui_ckpt_restore_full(tui_runner_t *r, dalic_pipeline_t *p)
{
	if (!r->opts.checkpoint)
		return DALIC_OK;
	void *buf;
	size_t len;
	int rc = runner_ckpt_read(r, &buf, &len);
	if (rc)
		return rc;
	rc = dalic_pipeline_set_checkpoint(p, buf, len, r->opts.checkpoint);
	free(buf);
	if (rc)
		dalic_tui_runner_fail(r, dalic_last_error());
	return rc;
}

/* The seek's note: which operators made it run the iterations. */
static void runner_ckpt_seek_note(tui_runner_t *r, int64_t n, char *why)
{
	r->seek_noted = why || n > 0;
	if (why)
		dalic_tui_runner_note(
		    r, "at iteration %ld: the seek ran %lld iterations because of %s", r->opts.at,
		    (long long)n, why);
	else if (n > 0)
		dalic_tui_runner_note(
		    r, "at iteration %ld: moved %lld iterations on without running them",
		    r->opts.at, (long long)n);
	free(why);
}

int dalic_tui_ckpt_seek_full(tui_runner_t *r, dalic_pipeline_t *p)
{
	int64_t from = dalic_pipeline_position(p);
	if (r->opts.at >= 0 && r->opts.at < from) {
		char msg[160];
		snprintf(msg, sizeof msg, "--at %ld: the checkpoint is already at iteration %lld",
		         r->opts.at, (long long)from);
		dalic_tui_runner_fail(r, msg);
		return DALIC_EINVAL;
	}
	if (r->opts.at > from) {
		char *why = NULL;
		int rc = dalic_pipeline_seek(p, r->opts.at - from, &why);
		if (rc) {
			free(why);
			dalic_tui_runner_fail(r, dalic_last_error());
			return rc;
		}
		runner_ckpt_seek_note(r, r->opts.at - from, why);
	}
	r->full_iteration = dalic_pipeline_position(p);
	return DALIC_OK;
}

int dalic_tui_ckpt_open_debug(tui_runner_t *r, dalic_debug_t *s)
{
	int rc = r->opts.checkpoint ? dalic_debug_checkpoint_load(s, r->opts.checkpoint) : 0;
	if (!rc && r->opts.at >= 0) {
		dalic_debug_status_t st;
		dalic_debug_status(s, &st);
		if (r->opts.at < st.iteration) {
			char msg[160];
			snprintf(msg, sizeof msg,
			         "--at %ld: the checkpoint is already at iteration %lld",
			         r->opts.at, (long long)st.iteration);
			dalic_tui_runner_fail(r, msg);
			return DALIC_EINVAL;
		}
		rc = dalic_debug_goto(s, r->opts.at);
	}
	if (rc)
		dalic_tui_runner_fail(r, dalic_debug_last_error(s));
	return rc;
}

/* The checkpoint of the engine in use now: DALIC_ESTATE (quietly) when it has none. */
static int runner_ckpt_bytes(tui_runner_t *r, uint8_t **buf, size_t *len)
{
	if (!r->params.enable_checkpointing)
		return DALIC_ESTATE;
	if (r->engine == TUI_ENGINE_FULL)
		return r->pipe && !r->pipe_failed ? dalic_pipeline_checkpoint(r->pipe, buf, len)
		                                  : DALIC_ESTATE;
	if (!r->dbg)
		return DALIC_ESTATE;
	/* between iterations only: in the middle of one the operators are not at one place */
	dalic_debug_status_t st;
	dalic_debug_status(r->dbg, &st);
	bool between = st.next_op == st.num_ops || (st.next_op == 0 && st.batch_size == 0);
	return between ? dalic_debug_checkpoint(r->dbg, buf, len) : DALIC_ESTATE;
}

void dalic_tui_ckpt_save(tui_runner_t *r, const char *path)
{
	if (!r->params.enable_checkpointing) {
		dalic_tui_runner_fail(r, "checkpoint: the pipeline was opened without "
		                         "enable_checkpointing (reopen with --enable-checkpointing "
		                         "or --checkpoint FILE)");
		return;
	}
	uint8_t *buf = NULL;
	size_t len = 0;
	if (runner_ckpt_bytes(r, &buf, &len)) {
		dalic_tui_runner_fail(r,
		                      r->engine == TUI_ENGINE_DEBUG && r->dbg
		                          ? "checkpoint: the iteration is under way; n finishes it"
		                          : "checkpoint: no pipeline to take it from");
		return;
	}
	dalic_ckpt_t *c = NULL;
	int64_t at = dalic_ckpt_parse(buf, len, path, &c) ? -1 : c->iter;
	dalic_ckpt_free(c);
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(buf, 1, len, f) == len;
	int err = errno;
	ok = (f && fclose(f) == 0) && ok;
	free(buf);
	if (!ok) {
		char msg[600];
		snprintf(msg, sizeof msg, "checkpoint: cannot write %s: %s", path, strerror(err));
		dalic_tui_runner_fail(r, msg);
		return;
	}
	dalic_tui_ckpt_position(r);
	dalic_tui_runner_note(r, "checkpoint saved to %s: it opens at iteration %lld (%zu bytes)",
	                      path, (long long)at, len);
}

/* Samples per epoch of the reader's shard, when every epoch has the same (0 otherwise). */
static int64_t runner_ckpt_epoch_size(tui_runner_t *r, const char *name)
{
	dalic_reader_meta_t m;
	if (r->engine != TUI_ENGINE_FULL || !r->pipe ||
	    dalic_pipeline_reader_meta(r->pipe, name, &m))
		return 0;
	if (m.number_of_shards == 1)
		return m.epoch_size;
	return m.pad_last_batch ? m.epoch_size_padded / m.number_of_shards : 0;
}

void dalic_tui_ckpt_position(tui_runner_t *r)
{
	if (!r->params.enable_checkpointing) {
		r->has_position = false;
		snprintf(r->position_note, sizeof r->position_note,
		         "positions: checkpointing off");
		return;
	}
	uint8_t *buf = NULL;
	size_t len = 0;
	dalic_ckpt_t *c = NULL;
	if (runner_ckpt_bytes(r, &buf, &len) || dalic_ckpt_parse(buf, len, "position", &c)) {
		free(buf);
		return; /* keep the last position read */
	}
	free(buf);
	r->has_position = true;
	r->position_note[0] = 0;
	r->epoch_idx = c->epoch_idx;
	r->num_readers = 0;
	for (int i = 0; i < c->num_entries && r->num_readers < TUI_MAX_READERS; i++) {
		const dalic_ckpt_entry_t *e = &c->entries[i];
		if (e->kind != DALIC_CKPT_READER)
			continue;
		tui_reader_pos_t *p = &r->readers[r->num_readers++];
		snprintf(p->name, sizeof p->name, "%s", e->name);
		p->epoch = e->reader.epoch;
		p->age = e->reader.age;
		p->epoch_size = runner_ckpt_epoch_size(r, e->name);
	}
	dalic_ckpt_free(c);
}

void dalic_tui_ckpt_fill(const tui_runner_t *r, tui_model_t *m)
{
	m->has_position = r->has_position;
	m->epoch_idx = r->epoch_idx;
	m->num_readers = r->num_readers;
	memcpy(m->readers, r->readers, sizeof m->readers);
	snprintf(m->position_note, sizeof m->position_note, "%s", r->position_note);
}
