/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_hfi.c — the HFI statements of a machine description
 * (docs/machines.md): what the emulated HFI device presents
 * (`hfi-classes`, `hfi-features`), the rows' initial values (`hfi`) and
 * timed changes (`event`). Portable C, no allocation.
 *
 * The table the device writes has the layout of the Intel SDM (vol. 3B,
 * "Hardware Feedback Interface" in the power and thermal management
 * chapter): an 8-byte timestamp, a header of one byte per class and
 * capability rounded up to 8 bytes, then one row per index of the same
 * rounded size. Its size in pages is what CPUID.06H:EDX[11:8] + 1
 * enumerates (vol. 2A, CPUID leaf 06H).
 */
#include <emul/machine_desc/machine.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <emul/machine_desc/machine_parse.h>

#define HFI_VALUE_TEXT_MAX 16   /* "255,255" and then some */

static const char *const feature_names[] = { "hfi", "itd", "pts" };   /* MACHINE_HFI_F_* order */

/* See machine.h. A buffer too small gets the names that fit. */
void machine_hfi_features_text(unsigned features, char *buf, size_t size)
{
	size_t used = 0;
	if (size == 0)
		return;
	ksnprintf(buf, size, "none");
	for (unsigned i = 0; i < 3; i++) {
		if (!(features & (1u << i)))
			continue;
		int n = ksnprintf(buf + used, size - used, "%s%s", used ? "," : "", feature_names[i]);
		if (n < 0 || used + (size_t)n >= size)
			return;
		used += (size_t)n;
	}
}

/* `hfi-classes` and `hfi-features` need `hfi-rows` above 0 before them,
 * and come before the first value line. */
static int hfi_header_allowed(struct machine_parser *p, const char *key)
{
	if (!p->line_hfi_rows)
		return machine_fail(p, p->line, "'%s' before the 'hfi-rows' line", key);
	if (p->m->hfi_rows == 0)
		return machine_fail(p, p->line, "'%s' given but 'hfi-rows 0' (no HFI)", key);
	if (p->line_hfi_first)
		return machine_fail(p, p->line, "'%s' after the first 'hfi' or 'event' line (line %u)",
				    key, p->line_hfi_first);
	return 0;
}

/* hfi-classes N, 1..MACHINE_HFI_CLASSES_MAX */
int machine_parse_hfi_classes(struct machine_parser *p, char **tok, int ntok)
{
	uint64_t v;
	if (ntok != 2)
		return machine_fail(p, p->line, "'hfi-classes' takes one value");
	if (p->line_hfi_classes)
		return machine_fail(p, p->line, "duplicate 'hfi-classes' (first at line %u)",
				    p->line_hfi_classes);
	if (hfi_header_allowed(p, "hfi-classes") ||
	    machine_number(p, tok[1], "hfi-classes", MACHINE_HFI_CLASSES_MAX, &v))
		return -1;
	if (v == 0)
		return machine_fail(p, p->line, "hfi-classes must be 1..%d", MACHINE_HFI_CLASSES_MAX);
	p->line_hfi_classes = p->line;
	p->m->hfi_classes = (unsigned)v;
	return 0;
}

/* hfi-features none | NAME[,NAME...] with NAME hfi, itd or pts, each once */
int machine_parse_hfi_features(struct machine_parser *p, char **tok, int ntok)
{
	unsigned features = 0;
	if (ntok != 2)
		return machine_fail(p, p->line, "'hfi-features' takes one value (e.g. hfi,itd,pts)");
	if (p->line_hfi_features)
		return machine_fail(p, p->line, "duplicate 'hfi-features' (first at line %u)",
				    p->line_hfi_features);
	if (hfi_header_allowed(p, "hfi-features"))
		return -1;
	if (strcmp(tok[1], "none") != 0) {
		for (const char *s = tok[1];;) {
			size_t n = 0;
			unsigned i = 0;
			while (s[n] && s[n] != ',')
				n++;
			while (i < 3 && (strlen(feature_names[i]) != n ||
					 strncmp(s, feature_names[i], n) != 0))
				i++;
			if (i == 3)
				return machine_fail(p, p->line,
						    "unknown HFI feature '%.*s' in '%s' (expected hfi, itd, pts or none)",
						    (int)n, s, tok[1]);
			if (features & (1u << i))
				return machine_fail(p, p->line, "HFI feature '%s' given twice",
						    feature_names[i]);
			features |= 1u << i;
			if (!s[n])
				break;
			s += n + 1;
		}
	}
	p->line_hfi_features = p->line;
	p->m->hfi_features = features;
	return 0;
}

/* "P,E" (each 0..255) for attribute what. */
static int parse_pair(struct machine_parser *p, const char *what, const char *s,
		      struct machine_hfi_value *out)
{
	char buf[HFI_VALUE_TEXT_MAX];
	const char *comma = strchr(s, ',');
	size_t n = comma ? (size_t)(comma - s) : 0;
	uint64_t perf, ee;
	if (!comma || n >= sizeof(buf) || machine_parse_uint(comma + 1, 255, &ee))
		goto bad;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (machine_parse_uint(buf, 255, &perf))
		goto bad;
	out->perf = (uint8_t)perf;
	out->ee = (uint8_t)ee;
	return 0;
bad:
	return machine_fail(p, p->line, "bad value '%s' for %s= (expected PERF,EE, each 0..255)", s,
			    what);
}

/* The class number of attribute name "classC" (C 1..9), or -1. */
static int class_attr(const char *name)
{
	if (strncmp(name, "class", 5) != 0 || name[5] < '1' || name[5] > '9' || name[6])
		return -1;
	return name[5] - '0';
}

/* perf=V ee=V (both required: class 0) and classC=P,E (C 1..hfi-classes-1,
 * each at most once) from tok[from..ntok-1]; *given gets bit c for each
 * class c given. */
static int parse_values(struct machine_parser *p, char **tok, int from, int ntok,
			struct machine_hfi_value *cls, uint8_t *given)
{
	unsigned have = 0;   /* bit 0 perf=, bit 1 ee=, bit 2+c classC= */
	unsigned classes = p->m->hfi_classes;
	for (int i = from; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		int c;
		uint64_t v;
		if (eq)
			*eq = 0;
		int is_perf = strcmp(tok[i], "perf") == 0, is_ee = strcmp(tok[i], "ee") == 0;
		c = class_attr(tok[i]);
		if (!eq || (!is_perf && !is_ee && c < 0)) {
			if (classes > 1)
				return machine_fail(p, p->line,
						    "unknown attribute '%s' (expected perf= ee= class1..class%u=P,E)",
						    tok[i], classes - 1);
			return machine_fail(p, p->line, "unknown attribute '%s' (expected perf= ee=)",
					    tok[i]);
		}
		unsigned bit = is_perf ? 1u : is_ee ? 2u : 4u << c;
		if (have & bit)
			return machine_fail(p, p->line, "'%s=' given twice", tok[i]);
		have |= bit;
		if (c >= 0) {
			if ((unsigned)c >= classes)
				return machine_fail(p, p->line,
						    "%s= given but hfi-classes is %u (classes 0..%u)",
						    tok[i], classes, classes - 1);
			if (parse_pair(p, tok[i], eq + 1, &cls[c]))
				return -1;
			continue;
		}
		if (machine_number(p, eq + 1, tok[i], 255, &v))
			return -1;
		if (is_perf)
			cls[0].perf = (uint8_t)v;
		else
			cls[0].ee = (uint8_t)v;
	}
	if ((have & 3) != 3)
		return machine_fail(p, p->line, "needs both perf= and ee= (0..255)");
	*given = (uint8_t)(1u | (have >> 2));
	return 0;
}

/* The classes not yet given by any value line take the default count 1. */
static void hfi_first_value_line(struct machine_parser *p)
{
	if (!p->line_hfi_first)
		p->line_hfi_first = p->line;
	if (!p->m->hfi_classes)
		p->m->hfi_classes = 1;
}

/* hfi ROW perf=V ee=V [class1=P,E ...]: with hfi-classes N every class
 * 1..N-1 is required. */
int machine_parse_hfi(struct machine_parser *p, char **tok, int ntok)
{
	int32_t row;
	uint8_t given;
	if (ntok < 2)
		return machine_fail(p, p->line, "'hfi' needs a row number");
	if (machine_row_value(p, tok[1], 0, &row))
		return -1;
	hfi_first_value_line(p);
	struct machine_hfi_row *r = &p->m->hfi[row];
	if (r->set)
		return machine_fail(p, p->line, "HFI row %d given twice", (int)row);
	if (parse_values(p, tok, 2, ntok, r->cls, &given))
		return -1;
	unsigned classes = p->m->hfi_classes;
	for (unsigned c = 1; c < classes; c++)
		if (!(given & (1u << c)))
			return machine_fail(p, p->line,
					    "HFI row %d lacks class%u= (hfi-classes %u: class1= to class%u= needed)",
					    (int)row, c, classes, classes - 1);
	r->set = 1;
	return 0;
}

/* event MS row=R perf=V ee=V [classC=P,E ...] — times must not go
 * backwards; classes not named keep their values. */
int machine_parse_event(struct machine_parser *p, char **tok, int ntok)
{
	struct machine *m = p->m;
	uint64_t ms;
	if (ntok < 3 || strncmp(tok[2], "row=", 4) != 0)
		return machine_fail(p, p->line, "expected 'event MS row=R perf=V ee=V'");
	if (m->event_count == MACHINE_MAX_EVENTS)
		return machine_fail(p, p->line, "more than %d events", MACHINE_MAX_EVENTS);
	if (machine_number(p, tok[1], "event time (ms)", 1000000000ull, &ms))
		return -1;
	struct machine_event *e = &m->event[m->event_count];
	if (m->event_count && ms < e[-1].time_ms)
		return machine_fail(p, p->line, "event at %lu ms comes after one at %lu ms",
				    (unsigned long)ms, (unsigned long)e[-1].time_ms);
	memset(e, 0, sizeof(*e));
	e->time_ms = ms;
	if (machine_row_value(p, tok[2] + 4, 0, &e->row))
		return -1;
	hfi_first_value_line(p);
	if (parse_values(p, tok, 3, ntok, e->cls, &e->classes))
		return -1;
	m->event_count++;
	return 0;
}

/* See machine_parse.h: defaults (1 class; features hfi,pts plus itd with
 * several classes), none of it without rows; the table's size in pages
 * with every class, which must fit the 4 bits of CPUID.06H:EDX[11:8]. */
int machine_check_hfi(struct machine_parser *p)
{
	struct machine *m = p->m;
	if (m->hfi_rows == 0) {
		m->hfi_classes = 0;
		m->hfi_features = 0;
		m->hfi_pages = 0;
		return 0;
	}
	if (!m->hfi_classes)
		m->hfi_classes = 1;
	if (!p->line_hfi_features)
		m->hfi_features = MACHINE_HFI_F_HFI | MACHINE_HFI_F_PTS |
				  (m->hfi_classes > 1 ? MACHINE_HFI_F_ITD : 0);
	size_t stride = (2 * m->hfi_classes + 7) / 8 * 8;
	size_t bytes = 8 + stride + m->hfi_rows * stride;
	m->hfi_pages = (unsigned)((bytes + 4095) / 4096);
	if (m->hfi_pages > 16)
		return machine_fail(p, p->line_hfi_rows,
				    "an HFI table of %u rows and %u classes needs %u pages (at most 16)",
				    m->hfi_rows, m->hfi_classes, m->hfi_pages);
	return 0;
}
