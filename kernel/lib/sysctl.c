/* SPDX-License-Identifier: BSD-2-Clause */
/* sysctl.c — lookup, listing, formatting and parsing of sysctl values.
 * Portable C: the host unit tests use it with their own sets. */
#include <lib/sysctl.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <lib/parse.h>
#include <lib/strbuf.h>

/* Members of oid's family; 0 for a plain variable. */
static int family_size(const struct sysctl_oid *o)
{
	return o->type == SYSCTL_TYPE_HANDLER && o->count ? o->count() : 0;
}

void sysctl_name(const struct sysctl_ref *ref, char *buf, size_t len)
{
	struct strbuf sb;
	strbuf_init(&sb, buf, len);
	const char *hash = ref->index >= 0 ? strchr(ref->oid->name, '#') : NULL;
	if (!hash) {
		strbuf_puts(&sb, ref->oid->name);
		return;
	}
	strbuf_put(&sb, ref->oid->name, (size_t)(hash - ref->oid->name));
	strbuf_printf(&sb, "%d", ref->index);
	strbuf_puts(&sb, hash + 1);
}

/* Whether name equals prefix or starts with "prefix." ("" matches all). */
static int matches_prefix(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	if (n == 0)
		return 1;
	return strncmp(name, prefix, n) == 0 && (name[n] == 0 || name[n] == '.');
}

int sysctl_find(const struct sysctl_set *set, const char *name, struct sysctl_ref *out)
{
	char buf[SYSCTL_NAME_MAX];
	for (const struct sysctl_oid *o = set->begin; o < set->end; o++) {
		int n = family_size(o);
		if (!n && strcmp(o->name, name) == 0) {
			*out = (struct sysctl_ref){ o, -1 };
			return 0;
		}
		for (int i = 0; i < n; i++) {
			struct sysctl_ref r = { o, i };
			sysctl_name(&r, buf, sizeof(buf));
			if (strcmp(buf, name) == 0) {
				*out = r;
				return 0;
			}
		}
	}
	return -1;
}

/* Length of the run of decimal digits at s. */
static size_t digit_run(const char *s)
{
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/* See sysctl.h. */
int sysctl_name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		size_t na = digit_run(a), nb = digit_run(b);
		if (na && nb) {   /* two numbers: by value, then the shorter (fewer zeros) first */
			size_t za = 0, zb = 0;
			while (za + 1 < na && a[za] == '0')
				za++;
			while (zb + 1 < nb && b[zb] == '0')
				zb++;
			if (na - za != nb - zb)
				return na - za < nb - zb ? -1 : 1;
			int c = strncmp(a + za, b + zb, na - za);
			if (c || na != nb)
				return c ? c : na < nb ? -1 : 1;
			a += na;
			b += nb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* Name order: the full names (index expanded), numbers by value. */
static int ref_cmp(const struct sysctl_ref *a, const struct sysctl_ref *b)
{
	char na[SYSCTL_NAME_MAX], nb[SYSCTL_NAME_MAX];
	sysctl_name(a, na, sizeof(na));
	sysctl_name(b, nb, sizeof(nb));
	return sysctl_name_cmp(na, nb);
}

/* The first variable of o in name order after *after (NULL: any) that
 * matches prefix; oid NULL if none. */
static struct sysctl_ref first_match(const struct sysctl_oid *o, const struct sysctl_ref *after,
				     const char *prefix)
{
	struct sysctl_ref best = { NULL, -1 };
	char buf[SYSCTL_NAME_MAX];
	int n = family_size(o);
	for (int i = n ? 0 : -1; i < (n ? n : 0); i++) {
		struct sysctl_ref r = { o, i };
		sysctl_name(&r, buf, sizeof(buf));
		if (matches_prefix(buf, prefix) && (!after || ref_cmp(&r, after) > 0) &&
		    (!best.oid || ref_cmp(&r, &best) < 0))
			best = r;
	}
	return best;
}

int sysctl_next(const struct sysctl_set *set, struct sysctl_ref *ref, const char *prefix)
{
	struct sysctl_ref best = { NULL, -1 };
	const struct sysctl_ref *after = ref->oid ? ref : NULL;
	for (const struct sysctl_oid *o = set->begin; o < set->end; o++) {
		struct sysctl_ref r = first_match(o, after, prefix);
		if (r.oid && (!best.oid || ref_cmp(&r, &best) < 0))
			best = r;
	}
	if (!best.oid)
		return -1;
	*ref = best;
	return 0;
}

size_t sysctl_value_size(const struct sysctl_ref *ref)
{
	const struct sysctl_oid *o = ref->oid;
	if (o->type == SYSCTL_TYPE_PROC && o->size > SYSCTL_VALUE_MAX)
		return o->size;
	return SYSCTL_VALUE_MAX;
}

void sysctl_format(const struct sysctl_ref *ref, char *buf, size_t len)
{
	const struct sysctl_oid *oid = ref->oid;
	switch (oid->type) {
	case SYSCTL_TYPE_INT:
		ksnprintf(buf, len, "%lld", (long long)*(const int64_t *)oid->ptr);
		break;
	case SYSCTL_TYPE_STRING:
		ksnprintf(buf, len, "%s", (const char *)oid->ptr);
		break;
	case SYSCTL_TYPE_PROC:
		oid->proc(buf, len);
		break;
	case SYSCTL_TYPE_HANDLER:
		oid->get(ref->index, buf, len);
		break;
	}
}

int sysctl_write(const struct sysctl_ref *ref, const char *value, char *err, size_t err_len)
{
	const struct sysctl_oid *oid = ref->oid;
	char name[SYSCTL_NAME_MAX];
	sysctl_name(ref, name, sizeof(name));
	if (!oid->writable) {
		ksnprintf(err, err_len, "%s is read-only", name);
		return -1;
	}
	if (oid->type == SYSCTL_TYPE_HANDLER)
		return oid->set(ref->index, value, err, err_len);
	if (oid->type == SYSCTL_TYPE_STRING) {
		size_t n = strlen(value);
		if (n + 1 > oid->size) {
			ksnprintf(err, err_len, "%s: value longer than %zu characters", name,
				  oid->size - 1);
			return -1;
		}
		memcpy(oid->ptr, value, n + 1);
		return 0;
	}
	int64_t v, lo = oid->min, hi = oid->max;
	if (lo > hi) {   /* no limit */
		lo = INT64_MIN;
		hi = INT64_MAX;
	}
	if (parse_i64_range(value, lo, hi, &v, name, err, err_len))
		return -1;
	if (oid->int_set)
		return oid->int_set(v, err, err_len);
	*(int64_t *)oid->ptr = v;
	return 0;
}
