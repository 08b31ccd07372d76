/* SPDX-License-Identifier: BSD-2-Clause */
/* options.c — the kernel command line. UEFI passes an image its arguments
 * as LoadOptions, UCS-2 text: the UEFI shell passes "loader.efi args",
 * GRUB's "chainloader FILE args" passes the args alone, a firmware boot
 * entry passes whatever optional data it holds (sometimes binary). The
 * kernel wants NUL-terminated ASCII of at most BOOT_CMDLINE_MAX - 1 bytes. */
#include <boot/loader.h>

/* Collects ASCII into a bounded buffer, counting what it had to change. */
struct ascii_sink {
	char *out;
	UINTN len;       /* bytes in out, with the NUL */
	UINTN n;         /* bytes written */
	UINTN replaced;  /* non-ASCII or control characters written as '?' */
	UINTN dropped;   /* characters that did not fit */
};

/* Append one character: whitespace becomes a space, anything else outside
 * printable ASCII becomes '?'. No locks. */
static void sink_put(struct ascii_sink *s, UINT32 c)
{
	if (c == '\t' || c == '\r' || c == '\n')
		c = ' ';
	if (c < 0x20 || c > 0x7e) {
		c = '?';
		s->replaced++;
	}
	if (s->n + 1 < s->len)
		s->out[s->n++] = (char)c;
	else
		s->dropped++;
}

/* Terminate the text and warn about replaced or dropped characters, naming
 * `what`. Boot services only. */
static void sink_finish(struct ascii_sink *s, const CHAR16 *what)
{
	s->out[s->n] = 0;
	if (s->replaced)
		log_warn(L"%s: %ld non-ASCII or control characters replaced by '?'", what,
			 (UINT64)s->replaced);
	if (s->dropped)
		log_warn(L"%s is %ld characters; truncated to %ld", what,
			 (UINT64)(s->n + s->dropped), (UINT64)s->n);
}

/* Copy src_len bytes of text into out as a kernel command line (see
 * sink_put), warning about changes under the name `what`. Boot services
 * only. */
void opts_copy_ascii(char *out, UINTN out_len, const char *src, UINTN src_len, const CHAR16 *what)
{
	struct ascii_sink s = { .out = out, .len = out_len };

	for (UINTN i = 0; i < src_len; i++)
		sink_put(&s, (UINT8)src[i]);
	sink_finish(&s, what);
}

/* Is c blank in a command line? No locks. */
static BOOLEAN opts_blank(CHAR16 c)
{
	return c == L' ' || c == L'\t' || c == L'\r' || c == L'\n';
}

/* Is the word [w, w + len) the loader's own name: its file name with any
 * path before it, or anything ending in ".efi"? No locks. */
static BOOLEAN opts_is_own_name(const CHAR16 *w, UINTN len, const CHAR16 *image_name)
{
	UINTN base = len;

	while (base > 0 && w[base - 1] != L'\\' && w[base - 1] != L'/' && w[base - 1] != L':')
		base--;
	if (image_name[0] && path_equal_nocase(w + base, len - base, image_name))
		return TRUE;
	return len >= 4 && path_equal_nocase(w + len - 4, 4, L".efi");
}

/* If the loader's LoadOptions hold a command line, write it to out as ASCII
 * and return TRUE. Options that are not text, or that are empty once blanks
 * and a leading own-name word (image_name, e.g. "BOOTX64.EFI") are removed,
 * give FALSE. Boot services only. */
BOOLEAN opts_cmdline(const EFI_LOADED_IMAGE *li, const CHAR16 *image_name, char *out, UINTN out_len)
{
	const CHAR16 *text = li->LoadOptions;
	UINTN len = 0, start = 0, end;

	if (!text || li->LoadOptionsSize < sizeof(CHAR16))
		return FALSE;
	while (len < li->LoadOptionsSize / sizeof(CHAR16) && text[len] != 0)
		len++;
	for (UINTN i = 0; i < len; i++) {
		if (text[i] < 0x20 && !opts_blank(text[i])) {
			log_info(L"load options (%d bytes) are not text; ignoring them",
				 li->LoadOptionsSize);
			return FALSE;
		}
	}
	while (start < len && opts_blank(text[start]))
		start++;
	end = start;
	while (end < len && !opts_blank(text[end]))
		end++;
	if (end > start && opts_is_own_name(text + start, end - start, image_name))
		start = end;
	while (start < len && opts_blank(text[start]))
		start++;
	while (len > start && opts_blank(text[len - 1]))
		len--;
	if (start == len)
		return FALSE;

	struct ascii_sink s = { .out = out, .len = out_len };

	for (UINTN i = start; i < len; i++)
		sink_put(&s, text[i]);
	sink_finish(&s, L"the command line in the load options");
	return TRUE;
}
