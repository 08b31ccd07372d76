/* SPDX-License-Identifier: BSD-2-Clause */
/* config.c — mosaic.cfg, the loader's configuration, next to the loader:
 *
 *   # comment (whole lines only)
 *   kernel=\mosaic\kernel.elf      path on the loader's volume
 *   module=\mosaic\init.elf        0..8 times, loaded in this order
 *   cmdline=console=all            default kernel command line
 *
 * Keys are lower case; spaces around keys and values are ignored; the last
 * kernel= and cmdline= win. Unknown keys and lines without '=' are warned
 * about and skipped. */
#include <boot/loader.h>

#define CFG_SIZE_MAX (64 * 1024)

/* Is c a blank (space or tab)? No locks. */
static BOOLEAN cfg_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Do the `len` bytes at s equal the NUL-terminated word? No locks. */
static BOOLEAN cfg_key_is(const char *s, UINTN len, const char *word)
{
	UINTN i;

	for (i = 0; i < len; i++)
		if (word[i] == 0 || s[i] != word[i])
			return FALSE;
	return word[i] == 0;
}

/* Apply one key=value pair (line number `line` for messages) to cfg.
 * Returns an error for a value the boot cannot go on with. No locks. */
static EFI_STATUS cfg_apply(struct loader_config *cfg, UINTN line, const char *key, UINTN key_len,
			    const char *value, UINTN value_len)
{
	if (cfg_key_is(key, key_len, "kernel")) {
		if (!path_ascii_to_path(value, value_len, cfg->kernel, LOADER_PATH_MAX)) {
			log_error(L"mosaic.cfg line %ld: kernel= needs a printable ASCII path "
				  L"shorter than %d characters", line, LOADER_PATH_MAX - 1);
			return EFI_INVALID_PARAMETER;
		}
	} else if (cfg_key_is(key, key_len, "module")) {
		if (cfg->module_count == BOOT_MODULES_MAX) {
			log_error(L"mosaic.cfg line %ld: more than %d module= lines", line,
				  BOOT_MODULES_MAX);
			return EFI_INVALID_PARAMETER;
		}
		if (!path_ascii_to_path(value, value_len, cfg->modules[cfg->module_count],
					LOADER_PATH_MAX)) {
			log_error(L"mosaic.cfg line %ld: module= needs a printable ASCII path "
				  L"shorter than %d characters", line, LOADER_PATH_MAX - 1);
			return EFI_INVALID_PARAMETER;
		}
		cfg->module_count++;
	} else if (cfg_key_is(key, key_len, "cmdline")) {
		opts_copy_ascii(cfg->cmdline, sizeof(cfg->cmdline), value, value_len,
				L"cmdline= in mosaic.cfg");
	} else {
		log_warn(L"mosaic.cfg line %ld: unknown key ignored (known: kernel, module, cmdline)",
			 line);
	}
	return EFI_SUCCESS;
}

/* Parse the `size` bytes of text into cfg (already holding the defaults).
 * No locks. */
static EFI_STATUS cfg_parse(struct loader_config *cfg, const char *text, UINTN size)
{
	UINTN pos = 0, line = 0;

	if (size >= 3 && (UINT8)text[0] == 0xef && (UINT8)text[1] == 0xbb && (UINT8)text[2] == 0xbf)
		pos = 3;        /* UTF-8 byte order mark from some editors */
	while (pos < size) {
		UINTN start = pos, end, eq;

		line++;
		while (pos < size && text[pos] != '\n')
			pos++;
		end = pos;
		pos++;          /* past the newline */
		while (start < end && cfg_blank(text[start]))
			start++;
		while (end > start && (cfg_blank(text[end - 1]) || text[end - 1] == '\r'))
			end--;
		if (start == end || text[start] == '#')
			continue;
		for (eq = start; eq < end && text[eq] != '='; eq++)
			;
		if (eq == end) {
			log_warn(L"mosaic.cfg line %ld: no '=' (expected key=value); ignored", line);
			continue;
		}
		UINTN key_end = eq, value_start = eq + 1;

		while (key_end > start && cfg_blank(text[key_end - 1]))
			key_end--;
		while (value_start < end && cfg_blank(text[value_start]))
			value_start++;
		EFI_STATUS status = cfg_apply(cfg, line, text + start, key_end - start,
					      text + value_start, end - value_start);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

/* Fill cfg from the configuration file at path, or with the defaults
 * (kernel \mosaic\kernel.elf, no modules, empty command line) if there is
 * none. Errors: unreadable file, too big, or a bad value. Boot services
 * only. */
EFI_STATUS cfg_load(const CHAR16 *path, struct loader_config *cfg)
{
	UINT64 size;
	UINT8 *text;
	EFI_STATUS status;

	ZeroMem(cfg, sizeof(*cfg));
	StrCpy(cfg->kernel, LOADER_DEFAULT_KERNEL);
	status = vol_read_whole(path, L"configuration file", CFG_SIZE_MAX, &text, &size);
	if (status == EFI_NOT_FOUND) {
		log_info(L"no %s: using kernel=%s and an empty command line", path,
			 LOADER_DEFAULT_KERNEL);
		return EFI_SUCCESS;
	}
	if (EFI_ERROR(status))
		return status;
	log_info(L"configuration: %s", path);
	cfg->from_file = TRUE;
	status = cfg_parse(cfg, (char *)text, (UINTN)size);
	FreePool(text);
	return status;
}
