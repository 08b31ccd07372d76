/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_name.c — file names on FAT: which long names may be created, the
 * 8.3 short name a long name gets (its basis and numeric tail, as in the
 * FAT specification's section 7), the long-name checksum, and short
 * names as text.
 */
#include <fs/fat.h>
#include <kern/printk.h>
#include <lib/string.h>

/* Characters a long name may not hold (besides controls). */
static int long_forbidden(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7F || strchr("\"*/:<>?\\|", c) != NULL;
}

/* Characters a short name may hold as they are. */
static int short_ok(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("!#$%&'()-@^_`{}~", c) != NULL;
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
}

/* See fat.h. Long names created here are printable ASCII: 1..255
 * characters, none of "*\/:<>?|, not ending in a dot or blank, not "." or
 * "..". */
int fat_name_check(const char *name, char *err, size_t len)
{
	size_t n = strnlen(name, FAT_NAME_MAX + 1);
	if (n == 0 || n > FAT_NAME_MAX) {
		ksnprintf(err, len, "a name must have 1..%u characters", FAT_NAME_MAX);
		return FS_ENAME;
	}
	for (size_t i = 0; i < n; i++) {
		if (long_forbidden(name[i]) || (unsigned char)name[i] >= 0x80) {
			ksnprintf(err, len, "'%s': character 0x%02x is not allowed in a FAT name", name,
				  (unsigned char)name[i]);
			return FS_ENAME;
		}
	}
	if (name[n - 1] == '.' || name[n - 1] == ' ') {
		ksnprintf(err, len, "'%s': a FAT name cannot end in a dot or a blank", name);
		return FS_ENAME;
	}
	return 0;
}

/* See fat.h. */
uint8_t fat_lfn_checksum(const uint8_t s[11])
{
	uint8_t sum = 0;
	for (int i = 0; i < 11; i++)
		sum = (uint8_t)(((sum & 1) << 7) + (sum >> 1) + s[i]);
	return sum;
}

/* Packs the characters of [p, end) into out, upper case, at most max of
 * them: blanks and dots dropped, one a short name cannot hold as '_'.
 * *k gets how many were written; 1 if anything was lost. */
static int short_part(const char *p, const char *end, uint8_t *out, int max, int *k)
{
	int lossy = 0;
	*k = 0;
	for (; p < end; p++) {
		if (*p == ' ' || *p == '.') {
			lossy = 1;
			continue;
		}
		char c = upper(*p);
		if (!short_ok(c)) {
			c = '_';
			lossy = 1;
		}
		if (*k == max)
			return 1;
		out[(*k)++] = (uint8_t)c;
	}
	return lossy;
}

/* See fat.h. Upper case; blanks and leading dots dropped; characters a
 * short name cannot hold become '_'; the base is what precedes the last
 * dot (8 characters), the extension what follows it (3). */
int fat_short_basis(const char *name, uint8_t out[11])
{
	int lossy = 0;
	size_t n = strlen(name);
	const char *dot = NULL;
	for (size_t i = 0; i < n; i++)
		if (name[i] == '.')
			dot = name + i;
	memset(out, ' ', 11);
	size_t start = 0;
	while (start < n && name[start] == '.') {
		start++;
		lossy = 1;
	}
	if (dot && dot < name + start)
		dot = NULL;
	int k;
	lossy |= short_part(name + start, dot ? dot : name + n, out, 8, &k);
	if (k == 0) {
		out[0] = '_';
		lossy = 1;
	}
	if (dot)
		lossy |= short_part(dot + 1, name + n, out + 8, 3, &k);
	return lossy;
}

/* See fat.h. "~N" replaces the end of the base so that it fits 8. */
void fat_short_tail(const uint8_t basis[11], uint32_t n, uint8_t out[11])
{
	char tail[12];
	int t = ksnprintf(tail, sizeof(tail), "~%u", n);
	int base = 0;
	while (base < 8 && basis[base] != ' ')
		base++;
	if (base > 8 - t)
		base = 8 - t;
	memcpy(out, basis, 11);
	memcpy(out + base, tail, (size_t)t);
	for (int i = base + t; i < 8; i++)
		out[i] = ' ';
}

/* See fat.h. */
int fat_name_is_short(const char *name)
{
	uint8_t b[11];
	char text[13];
	if (fat_short_basis(name, b))
		return 0;
	fat_short_to_text(b, 0, text, sizeof(text));
	return strcmp(text, name) == 0;
}

/* See fat.h. "NAME.EXT" with the blanks dropped; the NT case bits
 * (ntres 0x08: base in lower case, 0x10: extension) applied. */
void fat_short_to_text(const uint8_t s[11], uint8_t ntres, char *out, size_t len)
{
	size_t k = 0;
	for (int i = 0; i < 8 && s[i] != ' ' && k + 1 < len; i++) {
		char c = (char)(i == 0 && s[0] == 0x05 ? 0xE5 : s[i]);
		out[k++] = (ntres & 0x08) && c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
	}
	if (s[8] != ' ' && k + 1 < len)
		out[k++] = '.';
	for (int i = 8; i < 11 && s[i] != ' ' && k + 1 < len; i++)
		out[k++] = (ntres & 0x10) && s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : (char)s[i];
	if (len)
		out[k] = 0;
}

/* See fat.h. ASCII letters compare without case. */
int fat_name_equal(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (upper(*a) != upper(*b))
			return 0;
	return *a == *b;
}
