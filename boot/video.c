/* SPDX-License-Identifier: BSD-2-Clause */
/* video.c — the graphics mode policy (see video.h). */
#include <boot/video.h>

/* The largest usable mode within w x h (by area; the earlier of equal
 * ones, the current one first); -1 if none. */
static int largest_within(const struct video_mode *m, int n, int current, uint32_t w, uint32_t h)
{
	int best = -1;
	uint64_t best_area = 0;
	if (current >= 0 && current < n && m[current].usable && m[current].w <= w && m[current].h <= h) {
		best = current;
		best_area = (uint64_t)m[current].w * m[current].h;
	}
	for (int i = 0; i < n; i++) {
		uint64_t a = (uint64_t)m[i].w * m[i].h;
		if (m[i].usable && m[i].w <= w && m[i].h <= h && a > best_area) {
			best = i;
			best_area = a;
		}
	}
	return best;
}

/* The first usable mode of exactly w x h, -1 if none. */
static int exact(const struct video_mode *m, int n, uint32_t w, uint32_t h)
{
	for (int i = 0; i < n; i++)
		if (m[i].usable && m[i].w == w && m[i].h == h)
			return i;
	return -1;
}

/* See video.h. */
int video_choose(const struct video_mode *m, int n, int current, const struct video_policy *p,
		 uint32_t edid_w, uint32_t edid_h, const char **how)
{
	int cur_ok = current >= 0 && current < n && m[current].usable;
	int i;
	switch (p->kind) {
	case VIDEO_SIZE:
		if ((i = exact(m, n, p->w, p->h)) >= 0) {
			*how = "the requested mode";
			return i;
		}
		if ((i = largest_within(m, n, current, p->w, p->h)) >= 0) {
			*how = "the largest mode within the request";
			return i;
		}
		break;
	case VIDEO_KEEP:
		if (cur_ok) {
			*how = "the current mode (video=keep)";
			return current;
		}
		break;
	case VIDEO_AUTO:
		if (edid_w && edid_w <= VIDEO_CAP_W && edid_h <= VIDEO_CAP_H &&
		    (i = exact(m, n, edid_w, edid_h)) >= 0) {
			*how = "the monitor's preferred mode (EDID)";
			return i;
		}
		if (cur_ok && m[current].w <= VIDEO_CAP_W && m[current].h <= VIDEO_CAP_H) {
			*how = "the current mode";
			return current;
		}
		break;
	case VIDEO_LARGEST:
		break;
	}
	if ((i = largest_within(m, n, current, VIDEO_CAP_W, VIDEO_CAP_H)) >= 0) {
		*how = "the largest mode within 3840x2160";
		return i;
	}
	if (cur_ok) {
		*how = "the current mode (none within 3840x2160)";
		return current;
	}
	for (i = 0; i < n; i++) {
		if (m[i].usable) {
			*how = "the first usable mode";
			return i;
		}
	}
	*how = "no usable mode";
	return -1;
}

/* A decimal number of 1..5 digits at *s, advancing *s; 0 if none. */
static uint32_t number(const char **s)
{
	uint32_t v = 0;
	int digits = 0;
	while (**s >= '0' && **s <= '9' && digits < 6) {
		v = v * 10 + (uint32_t)(**s - '0');
		(*s)++;
		digits++;
	}
	return digits && digits <= 5 ? v : 0;
}

/* See video.h. */
const char *video_policy_parse(const char *value, struct video_policy *p)
{
	static const struct { const char *name; enum video_kind kind; } names[] = {
		{ "auto", VIDEO_AUTO }, { "keep", VIDEO_KEEP }, { "max", VIDEO_LARGEST },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *a = names[i].name, *b = value;
		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (!*a && !*b) {
			*p = (struct video_policy){ .kind = names[i].kind };
			return NULL;
		}
	}
	const char *s = value;
	uint32_t w = number(&s);
	if (*s != 'x')
		return "expected auto, keep, max or WIDTHxHEIGHT";
	s++;
	uint32_t h = number(&s);
	if (*s || w < VIDEO_MIN || w > VIDEO_MAX || h < VIDEO_MIN || h > VIDEO_MAX)
		return "WIDTHxHEIGHT wants two numbers in 320..16384";
	*p = (struct video_policy){ .kind = VIDEO_SIZE, .w = w, .h = h };
	return NULL;
}

/* See video.h. One pass over the words; each word's key and value are
 * unquoted into small buffers, bounded. */
int video_cmdline_value(const char *c, char *out, size_t out_len)
{
	int found = 0;
	if (out_len)
		out[0] = 0;
	while (*c) {
		while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
			c++;
		if (!*c)
			break;
		char key[8];
		size_t klen = 0, vlen = 0;
		int in_value = 0, keep = 1, too_long = 0;
		char quote = 0;
		for (; *c && (quote || (*c != ' ' && *c != '\t' && *c != '\r' && *c != '\n')); c++) {
			char ch = *c;
			if (!quote && (ch == '"' || ch == '\'')) {
				quote = ch;
				continue;
			}
			if (quote && ch == quote) {
				quote = 0;
				continue;
			}
			if (quote == '"' && ch == '\\' && (c[1] == '"' || c[1] == '\\'))
				ch = *++c;
			if (!in_value && ch == '=' ) {
				in_value = 1;
				keep = klen == 5 && key[0] == 'v' && key[1] == 'i' && key[2] == 'd' &&
				       key[3] == 'e' && key[4] == 'o';
				if (keep)
					vlen = 0;
				continue;
			}
			if (!in_value) {
				if (klen < sizeof(key))
					key[klen] = ch;
				klen++;
			} else if (keep) {
				if (vlen + 1 < out_len)
					out[vlen] = ch;
				else
					too_long = 1;
				vlen++;
			}
		}
		if (in_value && keep) {
			found = too_long ? -1 : 1;
			if (out_len)
				out[too_long ? 0 : vlen] = 0;
		}
	}
	return found;
}

/* See video.h. */
const char *video_edid_preferred(const uint8_t *e, size_t len, uint32_t *w, uint32_t *h)
{
	static const uint8_t header[8] = { 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0 };
	if (len < 128)
		return "EDID shorter than its 128-byte block";
	for (int i = 0; i < 8; i++)
		if (e[i] != header[i])
			return "EDID header missing";
	uint8_t sum = 0;
	for (int i = 0; i < 128; i++)
		sum = (uint8_t)(sum + e[i]);
	if (sum)
		return "EDID checksum wrong";
	const uint8_t *d = e + 54;
	if (d[0] == 0 && d[1] == 0)
		return "EDID's first descriptor is not a timing";
	*w = d[2] | (uint32_t)(d[4] & 0xF0) << 4;
	*h = d[5] | (uint32_t)(d[7] & 0xF0) << 4;
	if (*w == 0 || *h == 0)
		return "EDID's preferred timing has no size";
	return NULL;
}
