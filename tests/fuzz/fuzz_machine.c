/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the machine-description parser and checker
 * (kernel/emul/machine_desc/machine_parse.c, machine_check.c, machine_values.c), the
 * application to CPU descriptors (machine_apply.c) and the topology
 * builder behind it (kernel/sched/topo_build.c).
 *
 * Inputs are the presets in machines/ (read at start; run from the
 * repository root), damaged by line edits (deleted, duplicated, swapped
 * lines), number edits (boundary values in place of a number) and raw
 * byte mutations. A refused description must carry "t.machine:LINE: " with
 * LINE inside the text. An accepted one must keep every promise of
 * machine_check() (checked here independently) and must build a valid
 * topology tree (tests/fuzz/topo_check.h). */
#include <dirent.h>
#include <tests/fuzz/fuzz.h>
#include <tests/fuzz/topo_check.h>
#include <emul/machine_desc/machine.h>

#define TEXT_MAX 8192
#define PRESETS_MAX 17

/* The example of docs/machines.md, with events and a power line with
 * every attribute (the presets have no events). */
static const char example[] =
	"model small hybrid\ncpus 4\nmemory 512M\nhfi-rows 2\nspeed P 1.0\nspeed E 0.54\n"
	"smt-throughput P 1.39\n"
	"cpu 0 type=P core=0 thread=0 module=0 llc=0 row=0\n"
	"cpu 1 type=P core=0 thread=1 module=0 llc=0 row=0\n"
	"cpu 2 type=E core=1 module=1 llc=0 row=1\ncpu 3 type=E core=2 module=1 llc=0 row=1\n"
	"hfi 0 perf=255 ee=80\nhfi 1 perf=140 ee=200\n"
	"event 5000 row=1 perf=200 ee=200\nevent 6000 row=0 perf=10 ee=10  # later\n"
	"power budget=12.5 P=6 E=2.25 smt=1 idle-P=0.2 idle-E=0.1 base=2\n";

/* The HFI statements with several classes (docs/machines.md). */
static const char example_classes[] =
	"model small hybrid\ncpus 4\nmemory 512M\nhfi-rows 3\nhfi-classes 4\nhfi-features hfi,itd,pts\n"
	"speed P 1.0\nspeed E 0.54\nsmt-throughput P 1.39\n"
	"cpu 0 type=P core=0 thread=0 module=0 llc=0 row=0\n"
	"cpu 1 type=P core=0 thread=1 module=0 llc=0 row=1\n"
	"cpu 2 type=E core=1 module=1 llc=0 row=2\ncpu 3 type=E core=2 module=1 llc=0 row=2\n"
	"hfi 0 perf=255 ee=80 class1=250,70 class2=240,60 class3=200,50\n"
	"hfi 1 perf=255 ee=80 class1=250,70 class2=240,60 class3=200,50\n"
	"hfi 2 perf=140 ee=200 class1=100,190 class2=90,180 class3=200,250\n"
	"event 5000 row=2 perf=200 ee=200 class3=7,8\nevent 6000 row=0 perf=0 ee=0 class1=1,2 class2=3,4\n"
	"class-speed vector P=1.0 E=0.7\nclass-speed 3 E=1.25 P=0.5\nclass-speed vnni P=8 E=0.001\n";

static const char *preset[PRESETS_MAX];
static size_t preset_len[PRESETS_MAX];
static int npresets;

/* Reads every preset (machines/NAME.machine), in name order (so a seed means the same
 * inputs everywhere). */
static void load_presets(void)
{
	struct dirent **names;
	int n = scandir("machines", &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		char path[300];
		if (len > 8 && strcmp(name + len - 8, ".machine") == 0 && npresets < PRESETS_MAX - 1) {
			snprintf(path, sizeof(path), "machines/%s", name);
			FILE *f = fopen(path, "rb");
			char *buf = malloc(TEXT_MAX);
			if (!f || !buf)
				exit(2);
			preset_len[npresets] = fread(buf, 1, TEXT_MAX, f);
			preset[npresets++] = buf;
			fclose(f);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	preset[npresets] = example;
	preset_len[npresets++] = sizeof(example) - 1;
	preset[npresets] = example_classes;
	preset_len[npresets++] = sizeof(example_classes) - 1;
	if (npresets == 2) {
		fprintf(stderr, "fuzz_machine: no machines/*.machine (run from the repository root)\n");
		exit(2);
	}
}

/* Start and length of line k (0-based) of buf, or -1 if there is none. */
static long line_span(const char *buf, size_t len, size_t k, size_t *n)
{
	size_t pos = 0;
	for (; k && pos < len; pos++)
		if (buf[pos] == '\n')
			k--;
	if (k || pos >= len)
		return -1;
	size_t end = pos;
	while (end < len && buf[end] != '\n')
		end++;
	*n = end - pos + (end < len);
	return (long)pos;
}

static size_t count_lines(const char *buf, size_t len)
{
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	return lines + (len && buf[len - 1] != '\n');
}

/* Replaces buf[at..at+n) by s (all within cap). */
static void splice(char *buf, size_t *len, size_t cap, size_t at, size_t n, const char *s, size_t sn)
{
	if (*len - n + sn > cap)
		return;
	memmove(buf + at + sn, buf + at + n, *len - at - n);
	memcpy(buf + at, s, sn);
	*len = *len - n + sn;
}

/* One structural edit: a line deleted, duplicated elsewhere or swapped with
 * the next, or a run of digits replaced by a boundary value. */
static void edit(struct fuzz *f, char *buf, size_t *len)
{
	static const char *const numbers[] = { "0", "1", "2", "3", "7", "8", "15", "255", "256", "257",
		"4294967294", "4294967295", "99999999999999999999", "16G", "17G", "64M", "63M", "none",
		"1000", "1001", "9" };
	size_t lines = count_lines(buf, *len), n, n2;
	size_t k = lines ? fuzz_below(f, lines) : 0;
	long at = line_span(buf, *len, k, &n), next;
	char line[512];
	if (at < 0 || n > sizeof(line) || buf[at + (long)n - 1] != '\n')
		return;   /* no line, or the last one without its newline */
	memcpy(line, buf + at, n);
	switch (fuzz_below(f, 4)) {
	case 0:
		splice(buf, len, TEXT_MAX, (size_t)at, n, "", 0);
		break;
	case 1:
		next = line_span(buf, *len, fuzz_below(f, lines), &n2);
		if (next >= 0)
			splice(buf, len, TEXT_MAX, (size_t)next, 0, line, n);
		break;
	case 2:   /* the next line moves in front of this one */
		next = line_span(buf, *len, k + 1, &n2);
		if (next >= 0) {
			splice(buf, len, TEXT_MAX, (size_t)at, n, "", 0);
			splice(buf, len, TEXT_MAX, (size_t)at + n2, 0, line, n);
		}
		break;
	default: {   /* the r-th run of digits of the line, counting round */
		size_t d = n, e, runs = 0, r;
		for (size_t i = 0; i < n; i++)
			runs += line[i] >= '0' && line[i] <= '9' && (i == 0 || line[i - 1] < '0' || line[i - 1] > '9');
		r = runs ? fuzz_below(f, runs) : 0;
		for (size_t i = 0; i < n && runs; i++)
			if (line[i] >= '0' && line[i] <= '9' && (i == 0 || line[i - 1] < '0' || line[i - 1] > '9') &&
			    r-- == 0) {
				d = i;
				break;
			}
		for (e = d; e < n && line[e] >= '0' && line[e] <= '9'; e++)
			;
		const char *v = fuzz_pick(f, numbers, sizeof(numbers) / sizeof(numbers[0]));
		if (e > d)
			splice(buf, len, TEXT_MAX, (size_t)at + d, e - d, v, strlen(v));
		break;
	}
	}
}

/* The HFI promises: classes 1..8 and some features only with rows; the
 * table of every class fits its pages (at most 16); events name class 0
 * and only existing classes. */
static void check_hfi(struct fuzz *f, const struct machine *m)
{
	if (!m->hfi_rows) {
		if (m->hfi_classes || m->hfi_features || m->hfi_pages)
			fuzz_fail(f, "no rows but %u classes, features %u, %u pages", m->hfi_classes,
				  m->hfi_features, m->hfi_pages);
		return;
	}
	if (m->hfi_classes < 1 || m->hfi_classes > MACHINE_HFI_CLASSES_MAX || m->hfi_features > 7)
		fuzz_fail(f, "%u classes, features %u", m->hfi_classes, m->hfi_features);
	size_t stride = (2 * m->hfi_classes + 7) / 8 * 8;
	size_t bytes = 8 + stride + m->hfi_rows * stride;
	if (m->hfi_pages < 1 || m->hfi_pages > 16 || bytes > m->hfi_pages * 4096ull ||
	    bytes <= (m->hfi_pages - 1) * 4096ull)
		fuzz_fail(f, "%u rows x %u classes in %u pages", m->hfi_rows, m->hfi_classes,
			  m->hfi_pages);
	for (unsigned i = 0; i < m->event_count; i++)
		if (!(m->event[i].classes & 1) || (m->event[i].classes >> m->hfi_classes))
			fuzz_fail(f, "event %u gives classes 0x%x of %u", i, m->event[i].classes,
				  m->hfi_classes);
}

/* class-speed: never class 0, factors 0 (not given) only on classes
 * without a line, at most 8.000, every core type in use on each line. */
static void check_class_speed(struct fuzz *f, const struct machine *m)
{
	for (unsigned c = 0; c < MACHINE_HFI_CLASSES_MAX; c++) {
		unsigned given = 0;
		for (unsigned t = 0; t < MACHINE_CORE_TYPES; t++) {
			if (m->class_speed[c][t] > 8 * MACHINE_SPEED_ONE)
				fuzz_fail(f, "class %u type %u: factor %u", c, t, m->class_speed[c][t]);
			given |= m->class_speed[c][t];
		}
		if ((c == 0 && (given || m->class_speed_line[0])) || (given && !m->class_speed_line[c]) ||
		    (!given && m->class_speed_line[c]))
			fuzz_fail(f, "class %u: factors without a line or a line without factors", c);
		if (machine_class_speed(m, c, 0) == 0)
			fuzz_fail(f, "class %u: factor 0", c);
		if (!m->class_speed_line[c] || m->topology == MACHINE_TOPOLOGY_CPUID)
			continue;
		for (unsigned i = 0; i < m->cpu_count; i++)
			if (!m->class_speed[c][m->cpu[i].type])
				fuzz_fail(f, "class %u: no factor for cpu %u's type", c, i);
	}
	if (m->topology == MACHINE_TOPOLOGY_CPUID)
		for (unsigned c = 0; c < MACHINE_HFI_CLASSES_MAX; c++)
			if (m->class_speed_line[c])
				fuzz_fail(f, "class-speed line %u with topology cpuid", m->class_speed_line[c]);
}

/* The promises of machine_check() and the parser, checked on m. */
static void check_machine(struct fuzz *f, const struct machine *m)
{
	size_t ml = strlen(m->model);
	if (ml == 0 || ml >= MACHINE_MODEL_MAX || m->model[0] == ' ' || strstr(m->model, "  "))
		fuzz_fail(f, "model '%s'", m->model);
	for (size_t i = 0; i < ml; i++)
		if ((unsigned char)m->model[i] < ' ' || (unsigned char)m->model[i] > '~')
			fuzz_fail(f, "model with byte 0x%02x", (unsigned char)m->model[i]);
	if (m->cpu_count < 1 || m->cpu_count > MACHINE_MAX_CPUS || !m->cpu_count_line)
		fuzz_fail(f, "cpus %u", m->cpu_count);
	if (m->mem_bytes < MACHINE_MEM_MIN || m->mem_bytes > MACHINE_MEM_MAX)
		fuzz_fail(f, "memory %llu", (unsigned long long)m->mem_bytes);
	if (m->hfi_rows > MACHINE_MAX_ROWS || m->event_count > MACHINE_MAX_EVENTS)
		fuzz_fail(f, "%u rows, %u events", m->hfi_rows, m->event_count);
	for (unsigned i = 0; i < m->event_count; i++)
		if ((i && m->event[i].time_ms < m->event[i - 1].time_ms) || m->event[i].row < 0 ||
		    (unsigned)m->event[i].row >= m->hfi_rows)
			fuzz_fail(f, "event %u out of order or row %d", i, m->event[i].row);
	check_hfi(f, m);
	check_class_speed(f, m);
	const struct machine_power *pw = &m->power;
	if (pw->line && (pw->budget_mw > MACHINE_POWER_MAX_MW || pw->smt_mw > MACHINE_POWER_MAX_MW ||
			 pw->base_mw > MACHINE_POWER_MAX_MW))
		fuzz_fail(f, "power budget %u mW, smt %u mW, base %u mW", pw->budget_mw, pw->smt_mw,
			  pw->base_mw);
	for (unsigned t = 0; t < MACHINE_CORE_TYPES; t++)
		if (pw->idle_mw[t] > MACHINE_POWER_MAX_MW || (!pw->line && (pw->idle_mw[t] || pw->core_mw[t])))
			fuzz_fail(f, "power of core type %u: idle %u mW without a line or too high", t,
				  pw->idle_mw[t]);
	if (m->topology == MACHINE_TOPOLOGY_CPUID) {
		if (pw->line)
			fuzz_fail(f, "power line %u in a topology cpuid description", pw->line);
		return;
	}
	for (unsigned i = 0; i < m->cpu_count; i++) {
		const struct machine_cpu *c = &m->cpu[i];
		unsigned threads = 0;
		if (pw->line && (pw->core_mw[c->type] == 0 || pw->core_mw[c->type] > MACHINE_POWER_MAX_MW))
			fuzz_fail(f, "cpu %u: power %u mW for its type", i, pw->core_mw[c->type]);
		if (!c->line || c->type >= MACHINE_CORE_TYPES || !m->speed[c->type])
			fuzz_fail(f, "cpu %u undescribed, bad type or no speed", i);
		if (c->hfi_row != MACHINE_NO_ROW &&
		    (c->hfi_row < 0 || (unsigned)c->hfi_row >= m->hfi_rows || !m->hfi[c->hfi_row].set))
			fuzz_fail(f, "cpu %u: row %d", i, c->hfi_row);
		for (unsigned j = 0; j < m->cpu_count; j++) {
			const struct machine_cpu *o = &m->cpu[j];
			int same_core = o->core == c->core, same_module = o->module == c->module;
			threads += same_core;
			if ((same_core || same_module) &&
			    (o->type != c->type || o->package != c->package || o->llc != c->llc))
				fuzz_fail(f, "cpus %u and %u share a core or module but differ", i, j);
			if (same_core && (o->module != c->module || (j != i && o->thread == c->thread)))
				fuzz_fail(f, "cpus %u and %u: one core, other module or same thread", i, j);
		}
		if (c->smt_threads != threads || c->thread >= threads ||
		    (threads > 1 && !m->smt_throughput[c->type]))
			fuzz_fail(f, "cpu %u: thread %u of %u (counted %u)", i, c->thread, c->smt_threads,
				  threads);
	}
}

static void fuzz_one(struct fuzz *f)
{
	static char buf[TEXT_MAX];
	static struct machine m;
	static struct topo t;
	static struct cpu_desc descs[MACHINE_MAX_CPUS];
	if (!npresets)
		load_presets();
	int p = (int)fuzz_below(f, (uint64_t)npresets);
	size_t len = preset_len[p];
	memcpy(buf, preset[p], len);
	int edits = (int)fuzz_below(f, 4);
	for (int i = 0; i < edits; i++)
		edit(f, buf, &len);
	if (fuzz_below(f, 3) == 0)
		fuzz_mutate(f, (unsigned char *)buf, &len, TEXT_MAX);

	char *text = malloc(len ? len : 1);   /* exact size: ASan sees any overread */
	memcpy(text, buf, len);
	char err[200];
	int rc = machine_parse(&m, text, len, "t.machine", err, sizeof(err));
	free(text);
	if (rc != 0) {
		const char *prefix = "t.machine:";
		char *end;
		unsigned long line = strncmp(err, prefix, strlen(prefix)) ? 0 :
				     strtoul(err + strlen(prefix), &end, 10);
		if (!line || strncmp(end, ": ", 2) || !end[2] || line > count_lines(buf, len) + 1)
			fuzz_fail(f, "message without a line of the text: '%s'", err);
		return;
	}
	check_machine(f, &m);
	if (m.topology == MACHINE_TOPOLOGY_CPUID)
		return;
	struct cpu_desc *ptr[MACHINE_MAX_CPUS];
	for (unsigned i = 0; i < m.cpu_count; i++) {
		memset(&descs[i], 0, sizeof(descs[i]));
		descs[i].apic_id = i;   /* CPUID's part: unique APIC ids */
		ptr[i] = &descs[i];
	}
	if (machine_apply(&m, ptr, m.cpu_count, err, sizeof(err)))
		fuzz_fail(f, "machine_apply refused an accepted description: %s", err);
	if (topo_build(&t, descs, m.cpu_count, NULL) != TOPO_OK)
		fuzz_fail(f, "no tree from an accepted description: %s", t.error);
	topo_check_tree(f, &t, descs, m.cpu_count, NULL);
}

FUZZ_MAIN("machine")
