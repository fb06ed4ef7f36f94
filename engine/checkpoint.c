/*
 * dali_proto.Checkpoint read and written by hand (engine/checkpoint.h): the message is three
 * levels of length-delimited fields, and a hand walk can say which entry is bad and why
 * (protobuf-c only says no).
 */
#include "engine/checkpoint.h"

#include "engine/error.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building ---- */

dalic_ckpt_t *dalic_ckpt_new(void)
{
	dalic_ckpt_t *c = calloc(1, sizeof *c);
	if (c)
		c->iterator_data = strdup("");
	if (c && !c->iterator_data) {
		free(c);
		c = NULL;
	}
	if (c)
		c->has_external = true;
	return c;
}

void dalic_ckpt_free(dalic_ckpt_t *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->num_entries; i++)
		free(c->entries[i].name);
	free(c->entries);
	free(c->iterator_data);
	free(c);
}

int dalic_ckpt_add(dalic_ckpt_t *c, const char *name, dalic_ckpt_kind_t kind,
		   const dalic_philox_t *rng, const dalic_ckpt_reader_t *reader)
{
	if (c->num_entries == c->cap) {
		int cap = c->cap ? c->cap * 2 : 16;
		dalic_ckpt_entry_t *v = realloc(c->entries, sizeof *v * (size_t)cap);
		if (!v)
			return dalic_fail(DALIC_ENOMEM, "out of memory for checkpoint entries");
		c->entries = v;
		c->cap = cap;
	}
	dalic_ckpt_entry_t *e = &c->entries[c->num_entries];
	memset(e, 0, sizeof *e);
	e->name = strdup(name);
	if (!e->name)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	e->kind = kind;
	if (rng)
		e->rng = *rng;
	if (reader)
		e->reader = *reader;
	c->num_entries++;
	return DALIC_OK;
}

const dalic_ckpt_entry_t *dalic_ckpt_find(const dalic_ckpt_t *c, const char *name)
{
	for (int i = 0; i < c->num_entries; i++)
		if (!strcmp(c->entries[i].name, name))
			return &c->entries[i];
	return NULL;
}

int dalic_ckpt_set_iterator_data(dalic_ckpt_t *c, const char *json)
{
	char *s = strdup(json ? json : "");
	if (!s)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	free(c->iterator_data);
	c->iterator_data = s;
	return DALIC_OK;
}

const char *dalic_ckpt_kind_name(dalic_ckpt_kind_t k)
{
	return k == DALIC_CKPT_RNG ? "random" : k == DALIC_CKPT_READER ? "reader" : "stateless";
}

/* ---- the wire ---- */

typedef struct ckpt_span {
	const uint8_t *p, *end;
} ckpt_span_t;

typedef struct ckpt_field {
	uint32_t number;
	int wire;
	uint64_t value;   /* varint fields */
	ckpt_span_t data; /* length-delimited fields */
	size_t offset;    /* of the key, in the whole buffer */
} ckpt_field_t;

typedef struct ckpt_parser {
	const uint8_t *base;
	const char *what;
} ckpt_parser_t;

static bool ckpt_varint(ckpt_span_t *s, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (s->p >= s->end)
			return false;
		uint8_t b = *s->p++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

/* The next field of `s`: 1 = got one, 0 = end, <0 = error (message names `where`). */
static int ckpt_next_field(ckpt_parser_t *ps, ckpt_span_t *s, ckpt_field_t *f, const char *where)
{
	if (s->p >= s->end)
		return 0;
	f->offset = (size_t)(s->p - ps->base);
	uint64_t key, v;
	if (!ckpt_varint(s, &key) || key >> 3 == 0 || key >> 3 > UINT32_MAX)
		return dalic_fail(DALIC_EPARSE, "%s: %s: garbled field key at byte %zu", ps->what,
				  where, f->offset);
	f->number = (uint32_t)(key >> 3);
	f->wire = (int)(key & 7);
	switch (f->wire) {
	case 0:
		if (!ckpt_varint(s, &f->value))
			break;
		return 1;
	case 1:
	case 5: {
		size_t n = f->wire == 1 ? 8 : 4;
		if ((size_t)(s->end - s->p) < n)
			break;
		s->p += n;
		return 1;
	}
	case 2:
		if (!ckpt_varint(s, &v) || v > (uint64_t)(s->end - s->p))
			break;
		f->data = (ckpt_span_t){s->p, s->p + v};
		s->p += v;
		return 1;
	default:
		return dalic_fail(DALIC_EPARSE, "%s: %s: field %u has wire type %d at byte %zu "
				  "(garbled bytes)", ps->what, where, f->number, f->wire, f->offset);
	}
	return dalic_fail(DALIC_EPARSE, "%s: %s: field %u is truncated at byte %zu (the file "
			  "ends inside it)", ps->what, where, f->number, f->offset);
}

static char *ckpt_strdup_span(ckpt_span_t s)
{
	size_t n = (size_t)(s.end - s.p);
	char *r = malloc(n + 1);
	if (r) {
		memcpy(r, s.p, n);
		r[n] = 0;
	}
	return r;
}

/* ReaderStateSnapshot{loader_state{rng, current_epoch, age}}. */
static int ckpt_parse_reader(ckpt_parser_t *ps, ckpt_span_t s, const char *where,
			     dalic_ckpt_reader_t *out)
{
	ckpt_field_t f;
	int rc;
	bool have = false;
	char rng[32] = "";
	int64_t epoch = 0, age = 0;
	while ((rc = ckpt_next_field(ps, &s, &f, where)) > 0) {
		if (f.number != 1 || f.wire != 2)
			continue;
		have = true;
		ckpt_span_t in = f.data;
		ckpt_field_t g;
		while ((rc = ckpt_next_field(ps, &in, &g, where)) > 0) {
			if (g.number == 1 && g.wire == 2) {
				size_t n = (size_t)(g.data.end - g.data.p);
				if (n == 0 || n >= sizeof rng)
					return dalic_fail(DALIC_EPARSE, "%s: %s: reader generator state "
							  "of %zu bytes (expected a decimal "
							  "number)", ps->what, where, n);
				memcpy(rng, g.data.p, n);
				rng[n] = 0;
			} else if (g.number == 2 && g.wire == 0) {
				epoch = (int32_t)g.value;
			} else if (g.number == 3 && g.wire == 0) {
				age = (int32_t)g.value;
			}
		}
		if (rc < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	char *endp = NULL;
	errno = 0;
	unsigned long long r = *rng ? strtoull(rng, &endp, 10) : 0;
	if (!have || !*rng || errno || *endp || r == 0 || r >= 2147483647ull)
		return dalic_fail(DALIC_EPARSE,
				  "%s: %s: the state is neither empty, a Philox string nor a reader "
				  "snapshot with a minstd_rand0 state in [1, 2^31 - 2]",
				  ps->what, where);
	if (epoch < 0 || age < 0)
		return dalic_fail(DALIC_EPARSE, "%s: %s: negative reader epoch %lld or age %lld",
				  ps->what, where, (long long)epoch, (long long)age);
	*out = (dalic_ckpt_reader_t){(uint32_t)r, (int32_t)epoch, (int32_t)age};
	return DALIC_OK;
}

/* Old DALI stored per-sample mt19937_64 texts (RNGSnapshotCPU{repeated string rng = 1}). */
static bool ckpt_looks_mt_text(ckpt_span_t s)
{
	uint64_t key, n;
	if (!ckpt_varint(&s, &key) || key != 0x0a || !ckpt_varint(&s, &n) ||
	    n > (uint64_t)(s.end - s.p) || n < 100)
		return false;
	for (uint64_t i = 0; i < n; i++)
		if (!(s.p[i] == ' ' || (s.p[i] >= '0' && s.p[i] <= '9')))
			return false;
	return true;
}

static int ckpt_parse_state(ckpt_parser_t *ps, ckpt_span_t s, const char *where,
			    dalic_ckpt_entry_t *e)
{
	size_t n = (size_t)(s.end - s.p);
	if (n == 0) {
		e->kind = DALIC_CKPT_STATELESS;
		return DALIC_OK;
	}
	if (n >= 7 && !memcmp(s.p, "Philox_", 7)) {
		char text[DALIC_PHILOX_STRING_LEN + 8];
		if (n >= sizeof text)
			return dalic_fail(DALIC_EPARSE, "%s: %s: Invalid Philox state string "
					  "length: %zu", ps->what, where, n);
		memcpy(text, s.p, n);
		text[n] = 0;
		if (dalic_philox_parse(&e->rng, text))
			return dalic_fail_wrap(DALIC_EPARSE, "%s: %s", ps->what, where);
		e->kind = DALIC_CKPT_RNG;
		return DALIC_OK;
	}
	if (ckpt_looks_mt_text(s))
		return dalic_fail(DALIC_EPARSE,
				  "%s: %s: per-sample mt19937_64 generator texts (RNGSnapshotCPU): "
				  "a checkpoint of an older DALI version, which DALI 2.4 cannot "
				  "restore either", ps->what, where);
	DALIC_TRY(ckpt_parse_reader(ps, s, where, &e->reader));
	e->kind = DALIC_CKPT_READER;
	return DALIC_OK;
}

static int ckpt_parse_entry(ckpt_parser_t *ps, dalic_ckpt_t *c, ckpt_span_t s, int index)
{
	char where[320];
	snprintf(where, sizeof where, "entry %d", index);
	ckpt_field_t f;
	int rc;
	ckpt_span_t state = {s.p, s.p};
	char *name = NULL;
	while ((rc = ckpt_next_field(ps, &s, &f, where)) > 0) {
		if (f.number == 1 && f.wire == 2) {
			free(name);
			name = ckpt_strdup_span(f.data);
			if (!name)
				return dalic_fail(DALIC_ENOMEM, "out of memory");
			snprintf(where, sizeof where, "entry %d ('%.256s')", index, name);
		} else if (f.number == 2 && f.wire == 2) {
			state = f.data;
		} else if (f.number <= 2) {
			rc = dalic_fail(DALIC_EPARSE, "%s: %s: field %u has wire type %d (expected "
					"2): garbled bytes or another format", ps->what, where,
					f.number, f.wire);
			break;
		}
	}
	if (!rc && (!name || !*name))
		rc = dalic_fail(DALIC_EPARSE, "%s: %s: no operator name", ps->what, where);
	if (!rc && dalic_ckpt_find(c, name))
		rc = dalic_fail(DALIC_EPARSE, "%s: %s: The checkpoint already contains an operator "
				"with name \"%s\".", ps->what, where, name);
	dalic_ckpt_entry_t e = {0};
	if (!rc)
		rc = ckpt_parse_state(ps, state, where, &e);
	if (!rc)
		rc = dalic_ckpt_add(c, name, e.kind, &e.rng, &e.reader);
	free(name);
	return rc;
}

/* pipeline_data: {"iter": N, "epoch_idx": E} (Python reads both keys). */
static int ckpt_parse_pipeline_data(ckpt_parser_t *ps, dalic_ckpt_t *c, ckpt_span_t s)
{
	char *text = ckpt_strdup_span(s);
	if (!text)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	cJSON *j = cJSON_Parse(text);
	free(text);
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, "iter");
	const cJSON *ep = cJSON_GetObjectItemCaseSensitive(j, "epoch_idx");
	bool ok = cJSON_IsNumber(it) && cJSON_IsNumber(ep) && it->valuedouble >= 0 &&
	          ep->valuedouble >= 0;
	if (ok) {
		c->iter = (int64_t)it->valuedouble;
		c->epoch_idx = (int64_t)ep->valuedouble;
	}
	cJSON_Delete(j);
	if (!ok)
		return dalic_fail(DALIC_EPARSE,
				  "%s: pipeline_data: Pipeline checkpoint data is not a valid JSON "
				  "string with \"iter\" and \"epoch_idx\". Please make sure that the "
				  "checkpoint was created with the same version of DALI.", ps->what);
	return DALIC_OK;
}

static int ckpt_parse_external(ckpt_parser_t *ps, dalic_ckpt_t *c, ckpt_span_t s)
{
	ckpt_field_t f;
	int rc;
	bool have_pd = false;
	while ((rc = ckpt_next_field(ps, &s, &f, "external_ctx_cpt")) > 0) {
		if ((f.number == 1 || f.number == 2) && f.wire == 0)
			return dalic_fail(DALIC_EPARSE,
					  "%s: external_ctx_cpt holds integers (PipelineCheckpoint"
					  "{epoch_idx, iteration}): a checkpoint of a DALI version "
					  "older than 1.30, which DALI 2.4 does not read", ps->what);
		if (f.number == 1 && f.wire == 2) {
			DALIC_TRY(ckpt_parse_pipeline_data(ps, c, f.data));
			have_pd = true;
		} else if (f.number == 2 && f.wire == 2) {
			char *it = ckpt_strdup_span(f.data);
			if (!it)
				return dalic_fail(DALIC_ENOMEM, "out of memory");
			free(c->iterator_data);
			c->iterator_data = it;
		}
	}
	if (rc < 0)
		return rc;
	if (!have_pd)
		return dalic_fail(DALIC_EPARSE, "%s: external_ctx_cpt has no pipeline_data",
				  ps->what);
	c->has_external = true;
	return DALIC_OK;
}

int dalic_ckpt_parse(const uint8_t *buf, size_t len, const char *what, dalic_ckpt_t **out)
{
	*out = NULL;
	dalic_ckpt_t *c = dalic_ckpt_new();
	if (!c)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	c->has_external = false;
	ckpt_parser_t ps = {buf, what ? what : "checkpoint"};
	ckpt_span_t s = {buf, buf + len};
	ckpt_field_t f;
	int rc;
	while ((rc = ckpt_next_field(&ps, &s, &f, "Checkpoint")) > 0) {
		if (f.number == 1 && f.wire == 2)
			rc = ckpt_parse_entry(&ps, c, f.data, c->num_entries);
		else if (f.number == 2 && f.wire == 2)
			rc = ckpt_parse_external(&ps, c, f.data);
		else
			rc = dalic_fail(DALIC_EPARSE, "%s: field %u (wire type %d) at byte %zu is "
					"not part of a DALI checkpoint (garbled bytes or another "
					"file)", ps.what, f.number, f.wire, f.offset);
		if (rc)
			break;
	}
	if (!rc && len == 0)
		rc = dalic_fail(DALIC_EPARSE, "%s: empty file: Failed to deserialize checkpoint "
				"from protobuf.", ps.what);
	if (!rc && !c->has_external)
		rc = dalic_fail(DALIC_EPARSE, "%s: no external_ctx_cpt (pipeline_data): truncated, "
				"or not written by DALI 2.x's Pipeline.checkpoint()", ps.what);
	if (rc) {
		dalic_ckpt_free(c);
		return rc;
	}
	*out = c;
	return DALIC_OK;
}

int dalic_ckpt_load_file(const char *path, dalic_ckpt_t **out)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return dalic_fail(DALIC_EIO, "%s: %s", path, strerror(errno));
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	int rc = DALIC_OK;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *b = realloc(buf, cap);
			if (!b) {
				rc = dalic_fail(DALIC_ENOMEM, "%s: out of memory", path);
				break;
			}
			buf = b;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f))
				rc = dalic_fail(DALIC_EIO, "%s: read failed", path);
			break;
		}
	}
	fclose(f);
	if (!rc)
		rc = dalic_ckpt_parse(buf, len, path, out);
	free(buf);
	return rc;
}

/* ---- writing ---- */

typedef struct ckpt_out {
	uint8_t *p;
	size_t len, cap;
	bool oom;
} ckpt_out_t;

static void ckpt_put(ckpt_out_t *o, const void *data, size_t n)
{
	if (o->oom || n == 0)
		return;
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 512;
		while (cap < o->len + n)
			cap *= 2;
		uint8_t *p = realloc(o->p, cap);
		if (!p) {
			o->oom = true;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->len, data, n);
	o->len += n;
}

static void ckpt_put_varint(ckpt_out_t *o, uint64_t v)
{
	uint8_t b[10];
	int n = 0;
	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	ckpt_put(o, b, (size_t)n);
}

static void ckpt_put_bytes(ckpt_out_t *o, uint32_t field, const void *data, size_t n)
{
	ckpt_put_varint(o, (uint64_t)field << 3 | 2);
	ckpt_put_varint(o, n);
	ckpt_put(o, data, n);
}

/* The state bytes of one entry into `st` (reset first). */
static void ckpt_put_state(ckpt_out_t *st, const dalic_ckpt_entry_t *e)
{
	st->len = 0;
	if (e->kind == DALIC_CKPT_RNG) {
		char text[DALIC_PHILOX_STRING_LEN + 1];
		dalic_philox_format(&e->rng, text);
		ckpt_put(st, text, DALIC_PHILOX_STRING_LEN);
	} else if (e->kind == DALIC_CKPT_READER) {
		char rng[16];
		int n = snprintf(rng, sizeof rng, "%u", e->reader.rng);
		ckpt_out_t in = {0};
		ckpt_put_bytes(&in, 1, rng, (size_t)n);
		ckpt_put_varint(&in, 2 << 3);
		ckpt_put_varint(&in, (uint64_t)(int64_t)e->reader.epoch);
		ckpt_put_varint(&in, 3 << 3);
		ckpt_put_varint(&in, (uint64_t)(int64_t)e->reader.age);
		ckpt_put_bytes(st, 1, in.p, in.len);
		st->oom |= in.oom;
		free(in.p);
	}
}

int dalic_ckpt_serialize(const dalic_ckpt_t *c, uint8_t **buf, size_t *len)
{
	ckpt_out_t o = {0}, entry = {0}, st = {0};
	for (int i = 0; i < c->num_entries; i++) {
		const dalic_ckpt_entry_t *e = &c->entries[i];
		ckpt_put_state(&st, e);
		entry.len = 0;
		ckpt_put_bytes(&entry, 1, e->name, strlen(e->name));
		ckpt_put_bytes(&entry, 2, st.p, st.len);
		ckpt_put_bytes(&o, 1, entry.p, entry.len);
		o.oom |= entry.oom | st.oom;
	}
	char pd[96];
	int n = snprintf(pd, sizeof pd, "{\"iter\": %lld, \"epoch_idx\": %lld}", (long long)c->iter,
			 (long long)c->epoch_idx);
	entry.len = 0;
	ckpt_put_bytes(&entry, 1, pd, (size_t)n);
	ckpt_put_bytes(&entry, 2, c->iterator_data, strlen(c->iterator_data));
	ckpt_put_bytes(&o, 2, entry.p, entry.len);
	o.oom |= entry.oom;
	free(entry.p);
	free(st.p);
	if (o.oom) {
		free(o.p);
		return dalic_fail(DALIC_ENOMEM, "out of memory writing a checkpoint");
	}
	*buf = o.p;
	*len = o.len;
	return DALIC_OK;
}
