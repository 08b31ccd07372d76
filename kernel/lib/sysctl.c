/* sysctl.c — lookup, listing, formatting and parsing of sysctl values.
 * Portable C: the host unit tests use it with their own sets. */
#include <sysctl.h>
#include <printk.h>
#include <string.h>
#include <parse.h>

const struct sysctl_oid *sysctl_find(const struct sysctl_set *set, const char *name)
{
	for (const struct sysctl_oid *o = set->begin; o < set->end; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

static int matches_prefix(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	if (n == 0)
		return 1;
	return strncmp(name, prefix, n) == 0 && (name[n] == 0 || name[n] == '.');
}

const struct sysctl_oid *sysctl_next(const struct sysctl_set *set, const struct sysctl_oid *prev,
				     const char *prefix)
{
	const struct sysctl_oid *best = NULL;
	for (const struct sysctl_oid *o = set->begin; o < set->end; o++) {
		if (!matches_prefix(o->name, prefix))
			continue;
		if (prev && strcmp(o->name, prev->name) <= 0)
			continue;
		if (!best || strcmp(o->name, best->name) < 0)
			best = o;
	}
	return best;
}

size_t sysctl_value_size(const struct sysctl_oid *oid)
{
	if (oid->type == SYSCTL_TYPE_PROC && oid->size > SYSCTL_VALUE_MAX)
		return oid->size;
	return SYSCTL_VALUE_MAX;
}

void sysctl_format(const struct sysctl_oid *oid, char *buf, size_t len)
{
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
	}
}

int sysctl_write(const struct sysctl_oid *oid, const char *value, char *err, size_t err_len)
{
	if (!oid->writable) {
		ksnprintf(err, err_len, "%s is read-only", oid->name);
		return -1;
	}
	if (oid->type == SYSCTL_TYPE_STRING) {
		size_t n = strlen(value);
		if (n + 1 > oid->size) {
			ksnprintf(err, err_len, "%s: value longer than %zu characters", oid->name,
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
	if (parse_i64_range(value, lo, hi, &v, oid->name, err, err_len))
		return -1;
	if (oid->set)
		return oid->set(v, err, err_len);
	*(int64_t *)oid->ptr = v;
	return 0;
}
