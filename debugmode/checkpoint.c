/*
 * Debug mode's checkpoints (include/dalic_debug.h, docs/checkpoints.md): `checkpoint save`
 * writes the operators' states at the start of an iteration as DALI 2.4's bytes, `checkpoint
 * load` restarts the session at a checkpoint's position. The states are those of the eager
 * engine's nodes, so a saved file restores in `dalic run --checkpoint` and in DALI.
 */
#include "debugmode/session.h"
#include "engine/checkpoint_trace.h"
#include "engine/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dbgckpt_fail(dalic_debug_t *s, int rc)
{
	dalic_debug_set_error(s, dalic_last_error());
	return rc;
}

static int dbgckpt_write(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return dalic_fail(DALIC_EIO, "checkpoint save: cannot write %s: %s", path,
				  strerror(errno));
	bool ok = fwrite(buf, 1, len, f) == len;
	ok = (fclose(f) == 0) && ok;
	return ok ? DALIC_OK
		  : dalic_fail(DALIC_EIO, "checkpoint save: writing %s failed: %s", path,
			       strerror(errno));
}

int dalic_debug_checkpoint(dalic_debug_t *s, uint8_t **buf, size_t *len)
{
	/* a complete iteration i is the start of i + 1 */
	bool complete = s->pos == s->e->num_ops && !s->failed;
	if (!complete && (s->pos > 0 || s->begun))
		return dbgckpt_fail(s, dalic_fail(DALIC_ESTATE,
						  "checkpoint save: iteration %lld is under way (%d "
						  "of its %d operators ran); a checkpoint is taken "
						  "between iterations: `next` finishes this one",
						  (long long)s->iteration, s->pos, s->e->num_ops));
	int rc = dalic_ckpt_nodes_save(s->e->g, s->e->xnodes, s->iteration + complete,
				       s->epoch_idx, s->iterator_data, buf, len);
	return rc ? dbgckpt_fail(s, rc) : DALIC_OK;
}

int dalic_debug_checkpoint_save(dalic_debug_t *s, const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = dalic_debug_checkpoint(s, &buf, &len);
	if (!rc)
		rc = dbgckpt_write(path, buf, len);
	free(buf);
	return rc ? dbgckpt_fail(s, rc) : DALIC_OK;
}

int dalic_debug_checkpoint_load(dalic_debug_t *s, const char *path)
{
	dalic_ckpt_t *c = NULL;
	int rc = dalic_ckpt_load_file(path, &c);
	if (rc)
		return dbgckpt_fail(s, rc);
	rc = dalic_debug_restart(s);
	if (!rc)
		rc = dalic_ckpt_nodes_restore(s->e->g, s->e->xnodes, c, path);
	if (!rc) {
		s->iteration = c->iter;
		s->epoch_idx = c->epoch_idx;
		free(s->iterator_data);
		s->iterator_data = *c->iterator_data ? strdup(c->iterator_data) : NULL;
		if (*c->iterator_data && !s->iterator_data)
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	dalic_ckpt_free(c);
	if (rc) {
		/* a half-restored session would show a position it is not at */
		(void)dalic_debug_restart(s);
		return dbgckpt_fail(s, rc);
	}
	return DALIC_OK;
}
