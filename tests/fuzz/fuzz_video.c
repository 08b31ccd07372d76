/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the loader's graphics mode policy (boot/video.c):
 * command lines of random words (quoted, escaped, unterminated, long)
 * against a reference tokenizer for the last video= value; EDID blocks
 * built valid and then mutated against a reference verdict; random mode
 * lists, where the choice must be usable, within 3840x2160 when asked for
 * nothing larger and one is, and -1 only when no mode is usable. */
#include <tests/fuzz/fuzz.h>
#include <boot/video.h>

/* Reference: the unquoted value of the last video= word, 1/0/-1 as
 * video_cmdline_value() (value longer than cap - 1: -1, out empty). */
static int model_value(const char *c, char *out, size_t cap)
{
	int found = 0;
	out[0] = 0;
	char word[512];
	while (*c) {
		while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
			c++;
		if (!*c)
			break;
		size_t n = 0;
		char q = 0;
		for (; *c && (q || (*c != ' ' && *c != '\t' && *c != '\r' && *c != '\n')); c++) {
			if (!q && (*c == '"' || *c == '\'')) {
				q = *c;
				continue;
			}
			if (q && *c == q) {
				q = 0;
				continue;
			}
			char ch = *c;
			if (q == '"' && ch == '\\' && (c[1] == '"' || c[1] == '\\'))
				ch = *++c;
			word[n++] = ch;
		}
		word[n] = 0;
		char *eq = strchr(word, '=');
		if (eq && eq - word == 5 && !memcmp(word, "video", 5)) {
			if (strlen(eq + 1) + 1 > cap) {
				found = -1;
				out[0] = 0;
			} else {
				found = 1;
				strcpy(out, eq + 1);
			}
		}
	}
	return found;
}

static void fuzz_cmdline(struct fuzz *f)
{
	static const char *const parts[] = {
		"video", "=", "video=", "max", "keep", "auto", "1920x1080", "3840x2160", "\"", "'", "\\",
		"\\\"", " ", "\t", "hfi=off", "run=\"echo video=keep\"", "x", "vide", "videos=", "=video",
		"0123456789abcdef0123456789abcdef",
	};
	char line[400];
	size_t n = 0;
	int k = (int)fuzz_below(f, 12);
	line[0] = 0;
	for (int i = 0; i < k; i++) {
		const char *p = fuzz_pick(f, parts, sizeof(parts) / sizeof(parts[0]));
		if (n + strlen(p) + 1 > sizeof(line))
			break;
		strcpy(line + n, p);
		n += strlen(p);
	}
	size_t cap = 1 + fuzz_below(f, VIDEO_VALUE_MAX + 8);
	char got[VIDEO_VALUE_MAX + 8], want[VIDEO_VALUE_MAX + 8];
	memset(got, 'Z', sizeof(got));
	int r = video_cmdline_value(line, got, cap), m = model_value(line, want, cap);
	if (r != m || strcmp(got, want))
		fuzz_fail(f, "[%s] cap %zu: got %d '%s', model %d '%s'", line, cap, r, got, m, want);
	struct video_policy p;
	if (r == 1 && !video_policy_parse(got, &p) && p.kind == VIDEO_SIZE &&
	    (p.w < VIDEO_MIN || p.w > VIDEO_MAX || p.h < VIDEO_MIN || p.h > VIDEO_MAX))
		fuzz_fail(f, "policy %s accepted out of range", got);
}

static void fuzz_edid(struct fuzz *f)
{
	uint8_t e[400];
	size_t len = 128 + fuzz_below(f, 3) * 128;
	for (size_t i = 0; i < len; i++)
		e[i] = (uint8_t)fuzz_u64(f);
	static const uint8_t header[8] = { 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0 };
	memcpy(e, header, 8);
	uint8_t sum = 0;
	for (int i = 0; i < 127; i++)
		sum = (uint8_t)(sum + e[i]);
	e[127] = (uint8_t)(0x100 - sum);
	if (fuzz_below(f, 2))
		fuzz_mutate(f, e, &len, sizeof(e));
	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, e, len);
	uint32_t w = 0, h = 0;
	const char *why = video_edid_preferred(copy, len, &w, &h);
	int ok = len >= 128 && !memcmp(e, header, 8);
	sum = 0;
	for (size_t i = 0; ok && i < 128; i++)
		sum = (uint8_t)(sum + e[i]);
	ok = ok && sum == 0 && (e[54] | e[55]);
	uint32_t mw = ok ? e[56] | (uint32_t)(e[58] & 0xF0) << 4 : 0, mh = ok ? e[59] | (uint32_t)(e[61] & 0xF0) << 4 : 0;
	ok = ok && mw && mh;
	if ((why == NULL) != ok || (ok && (w != mw || h != mh)))
		fuzz_fail(f, "EDID: parser %s %ux%u, model %d %ux%u", why ? why : "ok", w, h, ok, mw, mh);
	free(copy);
}

static void fuzz_choose(struct fuzz *f)
{
	struct video_mode m[12];
	int n = (int)fuzz_below(f, 13), any = 0, any_in_cap = 0;
	static const uint32_t ws[] = { 640, 800, 1024, 1280, 1920, 2560, 3840, 5120, 7680 };
	for (int i = 0; i < n; i++) {
		m[i].w = ws[fuzz_below(f, 9)];
		m[i].h = m[i].w * 9 / 16;
		m[i].usable = fuzz_below(f, 4) != 0;
		any |= m[i].usable;
		any_in_cap |= m[i].usable && m[i].w <= VIDEO_CAP_W && m[i].h <= VIDEO_CAP_H;
	}
	int current = (int)fuzz_below(f, (uint64_t)n + 2) - 1;
	struct video_policy p = { .kind = (enum video_kind)fuzz_below(f, 4) };
	p.w = ws[fuzz_below(f, 9)];
	p.h = p.w * 9 / 16;
	uint32_t ew = fuzz_below(f, 2) ? ws[fuzz_below(f, 9)] : 0, eh = ew * 9 / 16;
	const char *how = NULL;
	int r = video_choose(m, n, current, &p, ew, eh, &how);
	if (!how || (r < 0) != !any || r >= n || (r >= 0 && !m[r].usable))
		fuzz_fail(f, "choice %d of %d modes (any usable %d): %s", r, n, any, how ? how : "no reason");
	int may_exceed = p.kind == VIDEO_KEEP || (p.kind == VIDEO_SIZE && (p.w > VIDEO_CAP_W || p.h > VIDEO_CAP_H));
	if (r >= 0 && any_in_cap && !may_exceed && (m[r].w > VIDEO_CAP_W || m[r].h > VIDEO_CAP_H))
		fuzz_fail(f, "policy %d chose %ux%u above the cap (%s)", p.kind, m[r].w, m[r].h, how);
}

static void fuzz_one(struct fuzz *f)
{
	switch (fuzz_below(f, 3)) {
	case 0: fuzz_cmdline(f); break;
	case 1: fuzz_edid(f); break;
	default: fuzz_choose(f); break;
	}
}

FUZZ_MAIN("video")
