/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_csv.c — CSV blocks framed by marker lines (see bench_csv.h). */
#include <bench/bench_csv.h>

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

/* 1 if s is 1..BENCH_CSV_NAME_MAX of A-Z a-z 0-9 . _ - (and / if slash). */
static int word_ok(const char *s, int slash)
{
	int n = 0;
	for (; s[n]; n++) {
		char ch = s[n];
		if (n >= BENCH_CSV_NAME_MAX ||
		    !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '.' || ch == '_' || ch == '-' || (slash && ch == '/')))
			return 0;
	}
	return n > 0;
}

int bench_csv_name_ok(const char *name)
{
	return word_ok(name, 0);
}

int bench_csv_text_ok(const char *s, int max)
{
	int n = 0;
	for (; s[n]; n++)
		if (n >= max || (unsigned char)s[n] < 0x20 || s[n] == 0x7f)
			return 0;
	return 1;
}

/* Starts an empty row. */
static void row_reset(struct bench_csv *c)
{
	strbuf_init(&c->sb, c->row, sizeof(c->row));
	c->fields = 0;
	c->failed = 0;
}

int bench_csv_begin(struct bench_csv *c, const struct bench_out *o, const char *name, const char *schema)
{
	if (!word_ok(name, 0) || !word_ok(schema, 1))
		return -1;
	c->out = o;
	c->name = name;
	c->hash = FNV_OFFSET;
	c->rows = 0;
	c->broken = 0;
	row_reset(c);
	bench_printf(o, "--- mosaic-bench-csv begin %s schema=%s ---\n", name, schema);
	return 0;
}

/* The separator before every field but the first; 0 or -1. */
static int field_start(struct bench_csv *c)
{
	return c->fields++ ? strbuf_putc(&c->sb, ',') : 0;
}

void bench_csv_str(struct bench_csv *c, const char *s)
{
	size_t n = 0;
	int quote = s[0] == 0 || s[0] == '-' || s[0] == ' ';
	for (; s[n]; n++) {
		if ((unsigned char)s[n] < 0x20 || s[n] == 0x7f) {
			c->failed = 1;
			return;
		}
		if (s[n] == ',' || s[n] == '"')
			quote = 1;
	}
	if (n && s[n - 1] == ' ')
		quote = 1;
	int rc = field_start(c);
	if (quote) {
		rc |= strbuf_putc(&c->sb, '"');
		for (size_t i = 0; i < n; i++)
			rc |= s[i] == '"' ? strbuf_put(&c->sb, "\"\"", 2) : strbuf_putc(&c->sb, s[i]);
		rc |= strbuf_putc(&c->sb, '"');
	} else {
		rc |= strbuf_put(&c->sb, s, n);
	}
	if (rc)
		c->failed = 1;
}

void bench_csv_int(struct bench_csv *c, int64_t v)
{
	if (field_start(c) || strbuf_printf(&c->sb, "%lld", (long long)v))
		c->failed = 1;
}

void bench_csv_fixed(struct bench_csv *c, int64_t v, int decimals)
{
	if (field_start(c) || bench_put_fixed(&c->sb, v, decimals))
		c->failed = 1;
}

void bench_csv_empty(struct bench_csv *c)
{
	if (field_start(c))
		c->failed = 1;
}

int bench_csv_header(struct bench_csv *c, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		bench_csv_str(c, names[i]);
	return bench_csv_row(c);
}

int bench_csv_row(struct bench_csv *c)
{
	int rc = 0;
	if (c->failed || !strbuf_ok(&c->sb)) {
		c->broken = 1;
		rc = -1;
	} else {
		for (size_t i = 0; i < c->sb.len; i++)
			c->hash = (c->hash ^ (unsigned char)c->row[i]) * FNV_PRIME;
		c->hash = (c->hash ^ (unsigned char)'\n') * FNV_PRIME;
		c->rows++;
		bench_printf(c->out, "%s\n", c->row);
	}
	row_reset(c);
	return rc;
}

void bench_csv_end(struct bench_csv *c)
{
	if (c->broken)
		bench_printf(c->out, "--- mosaic-bench-csv end %s broken ---\n", c->name);
	else
		bench_printf(c->out, "--- mosaic-bench-csv end %s rows=%u fnv1a=%08x ---\n", c->name, c->rows,
			     (unsigned)c->hash);
}
