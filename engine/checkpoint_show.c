/*
 * A DALI checkpoint in words or JSON (`dalic checkpoint show`): per entry the operator kind and
 * its decoded state, then where the pipeline resumes and the framework iterator's JSON.
 */
#include "engine/checkpoint.h"

#include "engine/error.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ckshow_text_entry(FILE *f, const dalic_ckpt_entry_t *e)
{
	fprintf(f, "  %-48s %-9s", e->name, dalic_ckpt_kind_name(e->kind));
	if (e->kind == DALIC_CKPT_RNG)
		fprintf(f, " key 0x%016llX  counter %llu:%llu  phase %d  (%llu samples drawn)",
			(unsigned long long)e->rng.key, (unsigned long long)e->rng.ctr[1],
			(unsigned long long)e->rng.ctr[0], e->rng.phase,
			(unsigned long long)e->rng.ctr[1]);
	else if (e->kind == DALIC_CKPT_READER)
		fprintf(f, " epoch %d, %d samples into it  (epoch-start generator %u)",
			e->reader.epoch, e->reader.age, e->reader.rng);
	fputc('\n', f);
}

static int ckshow_text(const dalic_ckpt_t *c, const char *what, FILE *f)
{
	fprintf(f, "checkpoint %s: %d operators; resumes after output %lld (epoch_idx %lld)\n",
		what, c->num_entries, (long long)c->iter, (long long)c->epoch_idx);
	for (int i = 0; i < c->num_entries; i++)
		ckshow_text_entry(f, &c->entries[i]);
	fprintf(f, "iterator: %s\n", *c->iterator_data ? c->iterator_data : "(none saved)");
	return DALIC_OK;
}

static cJSON *ckshow_json_entry(const dalic_ckpt_entry_t *e)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", e->name);
	cJSON_AddStringToObject(o, "kind", dalic_ckpt_kind_name(e->kind));
	if (e->kind == DALIC_CKPT_RNG) {
		char text[DALIC_PHILOX_STRING_LEN + 1], key[24];
		dalic_philox_format(&e->rng, text);
		snprintf(key, sizeof key, "0x%016llX", (unsigned long long)e->rng.key);
		cJSON_AddStringToObject(o, "state", text);
		cJSON_AddStringToObject(o, "key", key);
		cJSON_AddNumberToObject(o, "counter_hi", (double)e->rng.ctr[1]);
		cJSON_AddNumberToObject(o, "counter_lo", (double)e->rng.ctr[0]);
		cJSON_AddNumberToObject(o, "phase", e->rng.phase);
	} else if (e->kind == DALIC_CKPT_READER) {
		cJSON_AddNumberToObject(o, "epoch", e->reader.epoch);
		cJSON_AddNumberToObject(o, "age", e->reader.age);
		cJSON_AddNumberToObject(o, "epoch_start_rng", e->reader.rng);
	}
	return o;
}

static int ckshow_json(const dalic_ckpt_t *c, FILE *f)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "iter", (double)c->iter);
	cJSON_AddNumberToObject(root, "epoch_idx", (double)c->epoch_idx);
	cJSON *ops = cJSON_AddArrayToObject(root, "operators");
	for (int i = 0; i < c->num_entries; i++)
		cJSON_AddItemToArray(ops, ckshow_json_entry(&c->entries[i]));
	cJSON *it = *c->iterator_data ? cJSON_Parse(c->iterator_data) : NULL;
	if (it)
		cJSON_AddItemToObject(root, "iterator", it);
	else if (*c->iterator_data)
		cJSON_AddStringToObject(root, "iterator", c->iterator_data);
	else
		cJSON_AddNullToObject(root, "iterator");
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	if (!s)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	fprintf(f, "%s\n", s);
	free(s);
	return DALIC_OK;
}

int dalic_checkpoint_print(const void *buf, size_t len, const char *what, bool json, FILE *f)
{
	dalic_ckpt_t *c;
	DALIC_TRY(dalic_ckpt_parse(buf, len, what, &c));
	int rc = json ? ckshow_json(c, f) : ckshow_text(c, what ? what : "(bytes)", f);
	dalic_ckpt_free(c);
	return rc;
}
