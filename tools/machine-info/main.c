/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine-info — the host's view of a machine description (docs/machines.md),
 * through the kernel's own parser and checker (kernel/emul/machine_desc/machine_parse.c,
 * machine_check.c), so the host refuses exactly what the kernel refuses.
 *
 *   machine-info [--presets DIR] [--qemu] MACHINE
 *
 * MACHINE is a file, or the name of a preset DIR/NAME.machine (DIR default
 * "machines"). The file is read (at most MACHINE_FILE_MAX bytes, like the
 * kernel), parsed and checked. Without --qemu a short summary is printed;
 * with --qemu one line "CPUS MEMORY FILE" for tools/qemu-run.sh: QEMU's -smp
 * and -m values and the resolved file. --qemu also checks what QEMU's q35
 * machine takes (at most QEMU_MAX_CPUS vCPUs).
 *
 * Exit status: 0; 1 when the file cannot be read or is refused (the message
 * names FILE:LINE); 2 on a usage error.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <emul/machine_desc/machine.h>

/* QEMU 7.2 q35 under TCG: 256 vCPUs or more need x2APIC ids and interrupt
 * remapping ("requires kernel irqchip and X2APIC API support"). */
#define QEMU_MAX_CPUS 255

static void usage(const char *why, const char *arg)
{
	fprintf(stderr, "machine-info: %s%s%s%s\n", why, arg ? " '" : "", arg ? arg : "",
		arg ? "'" : "");
	fprintf(stderr, "usage: machine-info [--presets DIR] [--qemu] MACHINE\n");
	exit(2);
}

/* Whether path names a regular file. */
static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* "a b c": the preset names in dir, sorted, into out[size] (size > 4;
 * names that do not fit are left out and "..." says so). */
static void preset_list(const char *dir, char *out, size_t size)
{
	static const char ext[] = ".machine";
	struct dirent **names;
	size_t used = 0;
	int n = scandir(dir, &names, NULL, alphasort), full = 0;
	out[0] = 0;
	if (n < 0) {
		snprintf(out, size, "none (%s: %s)", dir, strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name), base = len - (sizeof(ext) - 1);
		if (!full && len >= sizeof(ext) && strcmp(name + base, ext) == 0) {
			if (used + 1 + base + 4 < size) {
				used += (size_t)snprintf(out + used, size - used, "%s%.*s", used ? " " : "",
							 (int)base, name);
			} else {
				snprintf(out + used, size - used, " ...");
				full = 1;
			}
		}
		free(names[i]);
	}
	free(names);
}

/* The file MACHINE names: itself if it is a file, else DIR/MACHINE.machine
 * for a bare name. Exits with a message listing the presets otherwise. */
static void resolve(const char *dir, const char *machine, char *path, size_t size)
{
	if (is_file(machine)) {
		snprintf(path, size, "%s", machine);
		return;
	}
	if (!strchr(machine, '/') && *machine &&
	    (size_t)snprintf(path, size, "%s/%s.machine", dir, machine) < size && is_file(path))
		return;
	char presets[1024];
	preset_list(dir, presets, sizeof(presets));
	fprintf(stderr, "machine-info: no machine '%s' (a file, or a preset: %s)\n", machine, presets);
	exit(1);
}

/* Reads path into buf (size bytes); returns its length or exits with a
 * message (unreadable, or larger than the kernel reads). */
static size_t read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "machine-info: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	size_t n = fread(buf, 1, size, f);
	int bad = ferror(f);
	int more = !bad && n == size && fgetc(f) != EOF;
	fclose(f);
	if (bad) {
		fprintf(stderr, "machine-info: %s: read error\n", path);
		exit(1);
	}
	if (more) {
		fprintf(stderr, "machine-info: %s is larger than %d bytes, the most the kernel reads\n",
			path, MACHINE_FILE_MAX);
		exit(1);
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *dir = "machines", *machine = NULL;
	int qemu = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--presets") == 0) {
			if (++i == argc)
				usage("--presets needs a directory", NULL);
			dir = argv[i];
		} else if (strcmp(argv[i], "--qemu") == 0) {
			qemu = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			usage("unknown option", argv[i]);
		} else if (machine) {
			usage("more than one machine:", argv[i]);
		} else {
			machine = argv[i];
		}
	}
	if (!machine)
		usage("no machine given", NULL);

	static char path[4096], text[MACHINE_FILE_MAX];
	static struct machine m;
	char err[256];
	resolve(dir, machine, path, sizeof(path));
	size_t len = read_file(path, text, sizeof(text));
	if (machine_parse(&m, text, len, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (qemu && m.cpu_count > QEMU_MAX_CPUS) {
		fprintf(stderr, "%s:%u: cpus %u: QEMU's q35 machine takes at most %d vCPUs\n", path,
			m.cpu_count_line, m.cpu_count, QEMU_MAX_CPUS);
		return 1;
	}
	unsigned long mib = (unsigned long)(m.mem_bytes >> 20);
	if (qemu) {
		printf("%u %luM %s\n", m.cpu_count, mib, path);
		return 0;
	}
	printf("%s: %s\n", path, m.model);
	printf("  cpus %u, memory %luM, topology from %s", m.cpu_count, mib,
	       m.topology == MACHINE_TOPOLOGY_CPUID ? "CPUID" : "the file");
	if (m.topology == MACHINE_TOPOLOGY_FILE)
		printf(", %u HFI row%s, %u event%s", m.hfi_rows, m.hfi_rows == 1 ? "" : "s",
		       m.event_count, m.event_count == 1 ? "" : "s");
	if (m.power.budget_mw)
		printf(", power budget %u.%03u W", m.power.budget_mw / 1000, m.power.budget_mw % 1000);
	else if (m.power.line)
		printf(", power metered");
	printf("\n");
	if (m.topology == MACHINE_TOPOLOGY_FILE && m.hfi_rows) {
		char features[32];
		machine_hfi_features_text(m.hfi_features, features, sizeof(features));
		printf("  emulated HFI: %u class%s, CPUID.06H features %s, table of %u page%s\n",
		       m.hfi_classes, m.hfi_classes == 1 ? "" : "es", features, m.hfi_pages,
		       m.hfi_pages == 1 ? "" : "s");
	}
	return 0;
}
