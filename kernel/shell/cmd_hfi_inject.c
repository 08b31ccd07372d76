/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_hfi_inject.c — `hfi set|throttle|restore|storm`: changes injected
 * into the emulated HFI device (docs/hfi.md). Every argument is checked
 * before the device is asked; refused on real hardware and on machines
 * without the device. */
#include <shell/shell.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <emul/emul_hfi.h>
#include <shell/cmd_hfi.h>
#include <shell/cmd_thread.h>

#define HFI_ERR_MAX 128

/* One "key=value" argument among keys (NULL-terminated): its index with
 * the number in vals[index] (0..max[index]) and seen[index] set; -1 after
 * a message naming the argument. */
static int hfi_kv(const char *verb, const char *arg, const char *const *keys, const uint64_t *max,
		  uint64_t *vals, int *seen, const char *expected)
{
	const char *eq = strchr(arg, '=');
	for (int k = 0; eq && keys[k]; k++) {
		size_t n = strlen(keys[k]);
		if ((size_t)(eq - arg) != n || strncmp(arg, keys[k], n) != 0)
			continue;
		char what[24];
		ksnprintf(what, sizeof(what), "%s %s", verb, keys[k]);
		if (seen[k]) {
			printk("hfi: %s: '%s' given twice\n", verb, keys[k]);
			return -1;
		}
		if (shell_arg_u64("hfi", what, eq + 1, 0, 0, max[k], &vals[k]))
			return -1;
		seen[k] = 1;
		return k;
	}
	printk("hfi: %s: unknown argument '%.*s' (expected %s)\n", verb, PARSE_ECHO_MAX, arg, expected);
	return -1;
}

/* The device's state, or a refusal naming the verb. */
static int hfi_device(const char *verb, struct emul_hfi_info *info)
{
	emul_hfi_get_info(info);
	if (!info->active) {
		printk("hfi: %s: no emulated HFI device (real hardware, or a machine without HFI rows)\n",
		       verb);
		return -1;
	}
	return 0;
}

/* hfi set ROW perf=P ee=E [class=C] */
static int hfi_set(int argc, char **argv, const struct emul_hfi_info *info, char *err)
{
	static const char *const keys[] = { "perf", "ee", "class", NULL };
	const uint64_t max[] = { 255, 255, info->classes - 1 };
	uint64_t row, vals[3] = { 0, 0, 0 };
	int seen[3] = { 0, 0, 0 };
	if (argc < 5 || argc > 6) {
		printk("hfi: set: expected 'hfi set ROW perf=P ee=E [class=C]'\n");
		return 1;
	}
	if (shell_arg_u64("hfi", "set ROW", argv[2], 0, 0, info->rows - 1, &row))
		return 1;
	for (int i = 3; i < argc; i++)
		if (hfi_kv("set", argv[i], keys, max, vals, seen, "perf=P ee=E [class=C]") < 0)
			return 1;
	if (!seen[0] || !seen[1]) {
		printk("hfi: set: needs both perf= and ee= (0..255)\n");
		return 1;
	}
	return emul_hfi_set((unsigned)row, (unsigned)vals[2], (unsigned)vals[0], (unsigned)vals[1],
			    err, HFI_ERR_MAX) ? -1 : 0;
}

/* hfi throttle CPULIST [perf=P] */
static int hfi_throttle(int argc, char **argv, char *err)
{
	static const char *const keys[] = { "perf", NULL };
	const uint64_t max[] = { 255 };
	uint64_t vals[1] = { 0 };
	int seen[1] = { 0 };
	struct cpuset cpus;
	if (argc < 3 || argc > 4) {
		printk("hfi: throttle: expected 'hfi throttle CPULIST [perf=P]'\n");
		return 1;
	}
	if (cmd_parse_cpus("hfi: throttle", argv[2], &cpus))
		return 1;
	if (argc == 4 && hfi_kv("throttle", argv[3], keys, max, vals, seen, "perf=P") < 0)
		return 1;
	return emul_hfi_throttle(&cpus, smp_cpu_count(), (unsigned)vals[0], err, HFI_ERR_MAX) ? -1 : 0;
}

/* See cmd_hfi.h. */
int cmd_hfi_inject(int argc, char **argv)
{
	const char *verb = argv[1];
	char err[HFI_ERR_MAX];
	struct emul_hfi_info info;
	uint64_t n;
	int rc;
	if (hfi_device(verb, &info))
		return 1;
	if (strcmp(verb, "set") == 0) {
		rc = hfi_set(argc, argv, &info, err);
	} else if (strcmp(verb, "throttle") == 0) {
		rc = hfi_throttle(argc, argv, err);
	} else if (strcmp(verb, "restore") == 0) {
		if (argc != 2) {
			printk("hfi: restore: takes no arguments\n");
			return 1;
		}
		rc = emul_hfi_restore(err, sizeof(err)) ? -1 : 0;
	} else {
		if (argc != 3) {
			printk("hfi: storm: expected 'hfi storm N' (1..%d)\n", EMUL_HFI_STORM_MAX);
			return 1;
		}
		if (shell_arg_u64("hfi", "storm N", argv[2], 0, 1, EMUL_HFI_STORM_MAX, &n))
			return 1;
		rc = emul_hfi_storm((unsigned)n, err, sizeof(err)) ? -1 : 0;
	}
	if (rc < 0)
		printk("hfi: %s: %s\n", verb, err);
	return rc != 0;
}
