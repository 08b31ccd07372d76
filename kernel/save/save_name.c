/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save_name.c — the results folder's name: the machine's model from the
 * CPU's brand string (or the emulated machine's description) and the
 * firmware's date (see save.h).
 */
#include <save/save.h>
#include <arch/x86_64/efi_rt.h>
#include <kern/printk.h>
#include <lib/string.h>

/* 1 for the characters kept in a folder name (FAT, Windows and macOS
 * all accept them unquoted). */
static int name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '.';
}

/* 1 when word w (length n) is one of the brand string's fillers. */
static int filler(const char *w, size_t n)
{
	static const char *const words[] = { "CPU", "Processor", "Intel", "Core", "Gen", "with" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return 1;
	return 0;
}

/* See save.h. The words after the last trademark sign ("(R)", "(TM)")
 * and before " @", fillers dropped, joined by '-': "13th Gen Intel(R)
 * Core(TM) i7-1370P" gives "i7-1370P", "Intel(R) Core(TM) Ultra 7 155H"
 * "Ultra-7-155H". Without a trademark sign, every word; "unknown" when
 * nothing is left. At most 31 characters. */
void save_model_name(const char *brand, char *out, size_t len)
{
	char buf[32];
	size_t k = 0, end = 0, from = 0;
	while (brand[end] && !(brand[end] == '@' && end && brand[end - 1] == ' '))
		end++;
	for (size_t i = 0; i + 1 < end; i++)
		if (brand[i] == '(' && (brand[i + 1] == 'R' || brand[i + 1] == 'T')) {
			size_t close = i;
			while (close < end && brand[close] != ')')
				close++;
			if (close < end)
				from = close + 1;
		}
	for (size_t i = from; i < end;) {
		while (i < end && brand[i] == ' ')
			i++;
		size_t w = i;
		while (i < end && brand[i] != ' ')
			i++;
		if (i == w || filler(brand + w, i - w))
			continue;
		if (k && k < sizeof(buf) - 1)
			buf[k++] = '-';
		for (size_t j = w; j < i && k < sizeof(buf) - 1; j++)
			if (name_char(brand[j]))
				buf[k++] = brand[j];
	}
	while (k && buf[k - 1] == '-')
		k--;
	buf[k] = 0;
	ksnprintf(out, len, "%s", k ? buf : "unknown");
}

/* See save.h. */
int save_date_now(struct save_date *d)
{
	struct efi_time t;
	if (efi_get_time(&t))
		return -1;
	*d = (struct save_date){ t.year, t.month, t.day, t.hour, t.minute, t.second };
	return 0;
}
