/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the CPUID replay tool's dump reader and checks
 * (tools/cpuid-replay/dump.c, dump_check.c, replay.c) with the kernel's
 * decoder and topology builder behind them.
 *
 * Inputs are excerpts of the real i7-1370P dump (tests/data/cpuid/; run
 * from the repository root): the CPUID and MSR sections of 1 to 4 of its
 * CPUs (a P-core's two threads and two E-cores of one module), with the
 * topology leaves' package count set to the CPUs kept, so the excerpt is a
 * whole dump; or (one input in three) 1 to 4 CPUs of the Phoenix 2 dump in
 * InstLatx64's own format ("Group: .. Affinity mask: .." sections, AMD's
 * leaf 0x80000026), its socket count patched likewise. One in four loses
 * its final line end. Each is then damaged by line edits (deleted,
 * duplicated, swapped lines, hex digits changed) and raw byte mutations.
 *
 * A refused dump must name "t.txt:LINE: " with LINE in the text, and leave
 * nothing behind; every warning names its line too. An accepted dump must
 * satisfy the reader's promises (numbers kept and in range, values sorted
 * and unique, bounded, the same leaves for every CPU, MSR sections for all
 * or none), and a replay that succeeds must give a valid topology tree of
 * exactly those CPUs, every package holding the CPUs its topology leaf
 * counts, and no CPU missing a leaf the decoder read. */
#include <tests/fuzz/fuzz.h>
#include <tests/fuzz/topo_check.h>
#include <tools/cpuid-replay/replay.h>

#define SRC "tests/data/cpuid/i7-1370P_RaptorLakeP_B06A2_CPUID.txt"
#define SRC_AMD "tests/data/cpuid/RyzenZ1_Phoenix2_A70F80_CPUID.txt"
#define TEXT_MAX (64 * 1024)

static const unsigned kept[4] = { 0, 1, 12, 13 };
static char *cpuid_sec[4], *msr_sec[4];   /* the sections of the kept CPUs */
static char *amd_sec[4];                  /* Phoenix 2's CPUs 0-3, from their Group line */

/* A copy of the section whose title contains title (up to the next title),
 * MSR sections cut to the HWP MSRs 0x770..0x777 to stay small. */
static char *section(const char *src, const char *title, int msr)
{
	const char *a = strstr(src, title), *b = a ? strstr(a, "\n------[") : NULL;
	if (!a || !b)
		exit(2);
	while (a > src && a[-1] != '\n')
		a--;   /* the title line from its start */
	b++;
	char *out = malloc((size_t)(b - a) + 1), *o = out;
	for (const char *l = a; l < b;) {
		const char *nl = strchr(l, '\n') + 1;
		if (!msr || l == a || strncmp(l, "MSR 0000077", 11) == 0) {
			memcpy(o, l, (size_t)(nl - l));
			o += nl - l;
		}
		l = nl;
	}
	*o = 0;
	return out;
}

/* The file at path into buf (size bytes, NUL-terminated); exits without it. */
static void read_src(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz_cpuid_dump: no %s (run from the repository root)\n", path);
		exit(2);
	}
	buf[fread(buf, 1, size - 1, f)] = 0;
	fclose(f);
}

static void load(void)
{
	static char src[256 * 1024], amd[128 * 1024];
	read_src(SRC, src, sizeof(src));
	read_src(SRC_AMD, amd, sizeof(amd));
	char *a = strstr(amd, "Group: ");
	for (int i = 0; i < 4 && a; i++) {
		char *b = strstr(a + 1, "Group: ");
		if (!b)
			exit(2);
		amd_sec[i] = strndup(a, (size_t)(b - a));
		a = b;
	}
	for (int i = 0; i < 4; i++) {
		char t[64];
		snprintf(t, sizeof(t), "CPUID Registers / Logical CPU #%u ]", kept[i]);
		cpuid_sec[i] = section(src, t, 0);
		snprintf(t, sizeof(t), "MSR Registers / Logical CPU #%u ]", kept[i]);
		msr_sec[i] = section(src, t, 1);
	}
}

/* Appends s to buf (within TEXT_MAX). */
static void put(char *buf, size_t *len, const char *s)
{
	size_t n = strlen(s);
	if (*len + n <= TEXT_MAX) {
		memcpy(buf + *len, s, n);
		*len += n;
	}
}

/* A whole excerpt of 1..4 CPUs: their CPUID sections with the package
 * count patched, an All CPUs section, their MSR sections. */
static void make_dump(struct fuzz *f, char *buf, size_t *len)
{
	unsigned mask = 1 + (unsigned)fuzz_below(f, 15), n = (unsigned)__builtin_popcount(mask);
	char count[32], line[64];
	snprintf(count, sizeof(count), "-%08X-00000201-", n);
	*len = 0;
	for (int i = 0; i < 4; i++) {
		if (!(mask & (1u << i)))
			continue;
		size_t at = *len;
		put(buf, len, cpuid_sec[i]);
		buf[*len] = 0;
		for (char *p = buf + at; (p = strstr(p, "-00000014-00000201-")); p += 19)
			memcpy(p, count, 19);
	}
	put(buf, len, "------[ All CPUs ]------\n\n");
	for (int i = 0; i < 4; i++)
		if (mask & (1u << i)) {
			snprintf(line, sizeof(line), "CPU %3u: Package 0: Valid\n", kept[i]);
			put(buf, len, line);
		}
	put(buf, len, "\n");
	for (int i = 0; i < 4; i++)
		if (mask & (1u << i))
			put(buf, len, msr_sec[i]);
}

/* A whole Phoenix 2 excerpt of 1..4 CPUs, the socket level's count
 * (0x80000026 sub-leaf 3) patched to the CPUs kept. */
static void make_amd_dump(struct fuzz *f, char *buf, size_t *len)
{
	unsigned mask = 1 + (unsigned)fuzz_below(f, 15), n = (unsigned)__builtin_popcount(mask);
	char count[32];
	snprintf(count, sizeof(count), "-%08X-00000403-", n);
	*len = 0;
	for (int i = 0; i < 4; i++) {
		if (!(mask & (1u << i)))
			continue;
		size_t at = *len;
		put(buf, len, amd_sec[i]);
		buf[*len] = 0;
		for (char *p = buf + at; (p = strstr(p, "-0000000C-00000403-")); p += 19)
			memcpy(p, count, 19);
	}
}

static size_t count_lines(const char *buf, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n + (len && buf[len - 1] != '\n');
}

/* [start, end) of a random line of buf, or 0 when there is none. */
static int pick_line(struct fuzz *f, const char *buf, size_t len, size_t *start, size_t *end)
{
	size_t lines = count_lines(buf, len), k, pos = 0;
	if (!lines)
		return 0;
	for (k = fuzz_below(f, lines); k && pos < len; pos++)
		k -= buf[pos] == '\n';
	const char *nl = memchr(buf + pos, '\n', len - pos);
	*start = pos;
	*end = nl ? (size_t)(nl - buf) + 1 : len;
	return 1;
}

/* One line edit: delete, duplicate elsewhere, move to the end, or change
 * a hex digit. */
static void edit(struct fuzz *f, char *buf, size_t *len)
{
	size_t s, e, s2, e2;
	static char line[TEXT_MAX];
	if (!pick_line(f, buf, *len, &s, &e))
		return;
	size_t n = e - s;
	memcpy(line, buf + s, n);
	switch (fuzz_below(f, 4)) {
	case 0:
		memmove(buf + s, buf + e, *len - e);
		*len -= n;
		break;
	case 1:
		if (*len + n > TEXT_MAX || !pick_line(f, buf, *len, &s2, &e2))
			break;
		memmove(buf + s2 + n, buf + s2, *len - s2);
		memcpy(buf + s2, line, n);
		*len += n;
		break;
	case 2:
		memmove(buf + s, buf + e, *len - e);
		memcpy(buf + *len - n, line, n);
		break;
	default:
		for (size_t i = 0; i < n; i++) {
			size_t at = s + (size_t)fuzz_below(f, n);
			if (strchr("0123456789ABCDEF", buf[at]) && buf[at]) {
				buf[at] = "0123456789ABCDEF"[fuzz_below(f, 16)];
				break;
			}
		}
		break;
	}
}

/* "t.txt:LINE: " with 1 <= LINE <= lines + 1, or a failed check. */
static void check_line_prefix(struct fuzz *f, const char *msg, size_t lines)
{
	char *end;
	unsigned long line = strncmp(msg, "t.txt:", 6) ? 0 : strtoul(msg + 6, &end, 10);
	if (!line || line > lines + 1 || strncmp(end, ": ", 2) || !end[2])
		fuzz_fail(f, "message without a line of the text: '%s'", msg);
}

static struct fuzz *cur;
static size_t cur_lines;

static void warned(void *ctx, const char *msg)
{
	(void)ctx;
	check_line_prefix(cur, msg, cur_lines);
}

/* The reader's promises on an accepted dump. */
static void check_dump(struct fuzz *f, const struct dump *d)
{
	const struct dump_cpu *first = NULL, *with_msr = NULL;
	unsigned n = 0;
	for (unsigned i = 0; i < DUMP_MAX_CPUS; i++) {
		const struct dump_cpu *c = d->cpu[i];
		if (!c)
			continue;
		n++;
		if (c->number != i || !c->cpuid_line || c->nleaves > DUMP_MAX_VALUES ||
		    c->nmsrs > DUMP_MAX_VALUES || !dump_find_leaf(c, 0))
			fuzz_fail(f, "cpu %u: number %u, line %u, %zu leaves, %zu msrs", i, c->number,
				  c->cpuid_line, c->nleaves, c->nmsrs);
		for (size_t k = 1; k < c->nleaves; k++) {
			const struct dump_leaf *a = &c->leaves[k - 1], *b = &c->leaves[k];
			if (a->leaf > b->leaf || (a->leaf == b->leaf && (a->has_sub > b->has_sub ||
			    (a->has_sub == b->has_sub && a->sub >= b->sub))))
				fuzz_fail(f, "cpu %u: leaves not sorted and unique", i);
		}
		for (size_t k = 1; k < c->nmsrs; k++)
			if (c->msrs[k - 1].msr >= c->msrs[k].msr)
				fuzz_fail(f, "cpu %u: MSRs not sorted and unique", i);
		first = first ? first : c;
		for (size_t k = 0; k < c->nleaves; k++)
			if (!dump_find_leaf(first, c->leaves[k].leaf))
				fuzz_fail(f, "cpu %u lists leaf 0x%x, cpu %u does not", i,
					  c->leaves[k].leaf, first->number);
		for (size_t k = 0; k < first->nleaves; k++)
			if (!dump_find_leaf(c, first->leaves[k].leaf))
				fuzz_fail(f, "cpu %u lacks leaf 0x%x", i, first->leaves[k].leaf);
		if (c->msr_line)
			with_msr = c;
	}
	if (n != d->ncpus || n == 0)
		fuzz_fail(f, "%u CPUs counted, ncpus %u", n, d->ncpus);
	for (unsigned i = 0; with_msr && i < DUMP_MAX_CPUS; i++)
		if (d->cpu[i] && !d->cpu[i]->msr_line)
			fuzz_fail(f, "cpu %u without an MSR section, cpu %u with one", i, with_msr->number);
}

/* What a successful replay promises. */
static void check_replay(struct fuzz *f, const struct dump *d, const struct replay *r)
{
	topo_check_tree(f, &r->tree, r->descs, r->ncpu, &r->present);
	if (r->tree.ncpus != (int)d->ncpus)
		fuzz_fail(f, "%d CPUs in the tree, %u in the dump", r->tree.ncpus, d->ncpus);
	for (unsigned c = 0; c < r->ncpu; c++) {
		if (!d->cpu[c] != !cpuset_isset(&r->present, c))
			fuzz_fail(f, "cpu %u present in one of dump and replay only", c);
		if (!d->cpu[c])
			continue;
		unsigned in_pkg = 0;
		for (unsigned o = 0; o < r->ncpu; o++)
			in_pkg += d->cpu[o] && r->descs[o].package_id == r->descs[c].package_id;
		if (dump_package_count(d->cpu[c]) > in_pkg ||
		    (r->descs[c].notes & CPU_DESC_NOTE_LEAF_MISSING))
			fuzz_fail(f, "cpu %u: package short of CPUs, or a leaf missing", c);
	}
}

static void fuzz_one(struct fuzz *f)
{
	static char buf[TEXT_MAX + 1];
	static struct dump d;
	static struct replay r;
	size_t len;
	if (!cpuid_sec[0])
		load();
	if (fuzz_below(f, 3) == 0)
		make_amd_dump(f, buf, &len);
	else
		make_dump(f, buf, &len);
	if (len && fuzz_below(f, 4) == 0)
		len--;   /* no final line end */
	int edits = (int)fuzz_below(f, 4);
	for (int i = 0; i < edits; i++)
		edit(f, buf, &len);
	if (fuzz_below(f, 3) == 0)
		fuzz_mutate(f, (unsigned char *)buf, &len, TEXT_MAX);

	char *text = malloc(len ? len : 1);   /* exact size: ASan sees any overread */
	memcpy(text, buf, len);
	char err[512];
	cur = f;
	cur_lines = count_lines(buf, len);
	int rc = dump_parse(text, len, "t.txt", &d, warned, NULL, err, sizeof(err));
	free(text);
	if (rc) {
		check_line_prefix(f, err, cur_lines);
		for (unsigned i = 0; i < DUMP_MAX_CPUS; i++)
			if (d.cpu[i])
				fuzz_fail(f, "a refused dump kept cpu %u", i);
		return;
	}
	check_dump(f, &d);
	if (replay_run(&d, &r, err, sizeof(err)))
		check_line_prefix(f, err, cur_lines);
	else
		check_replay(f, &d, &r);
	dump_free(&d);
}

FUZZ_MAIN("cpuid_dump")
